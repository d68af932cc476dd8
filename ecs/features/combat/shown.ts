import { Dirty } from '../../core/components.ts';
import type { GameWorld } from '../../core/world.ts';
import { markDirty } from '../../core/world.ts';
import { COMBAT, type Shown, type ShownDeath, type ShownHit } from './state.ts';

/**
 * What a tick shows on an entity to everyone who sees it: the hits it took and its death. It rides in
 * the entity's world:update entry (Dirty.shown), which replication encodes once per tick for all its
 * viewers, instead of one event per viewer (hits x viewers in a crowd fight). Kept for the current tick
 * only: a record of an earlier tick is never read.
 */

function shownFor(world: GameWorld, eid: number): Shown {
  const st = world.get(COMBAT);
  if (st.shownTick !== world.tick) {
    st.shown.clear();
    st.shownTick = world.tick;
  }
  let s = st.shown.get(eid);
  if (s === undefined) {
    s = { hits: [] };
    st.shown.set(eid, s);
  }
  markDirty(world, eid, Dirty.shown);
  return s;
}

export function showHit(world: GameWorld, eid: number, hit: ShownHit): void {
  shownFor(world, eid).hits.push(hit);
}

export function showDeath(world: GameWorld, eid: number, death: ShownDeath): void {
  shownFor(world, eid).death = death;
}

/** This tick's hits and death on an entity (undefined when none). */
export function shownOf(world: GameWorld, eid: number): Shown | undefined {
  const st = world.get(COMBAT);
  return st.shownTick === world.tick ? st.shown.get(eid) : undefined;
}
