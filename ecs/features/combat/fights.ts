import { Dirty } from '../../core/components.ts';
import type { GameWorld, PlayerData } from '../../core/world.ts';
import { markDirty } from '../../core/world.ts';
import { COMBAT } from './state.ts';

/** Who fights whom: starting and stopping a fight (its `targetId` is replicated), and who is in a death. */

/**
 * The players in a death: the one who died (if a player), its killer (if a player) and every player
 * attacking it. They get `entity:death` as an event; everyone else who sees it reads the death in its
 * world:update entry. Call before the fights on it are stopped.
 */
export function forEachInFight(
  world: GameWorld,
  eid: number,
  killerId: string | null,
  visit: (p: PlayerData) => void,
): void {
  const seen = new Set<PlayerData>();
  const add = (p: PlayerData | undefined) => {
    if (p === undefined || seen.has(p)) return;
    seen.add(p);
    visit(p);
  };
  add(world.playerByEid.get(eid));
  if (killerId !== null) add(world.players.get(killerId));
  for (const [attacker, fight] of world.get(COMBAT).fights)
    if (fight.targetEid === eid) add(world.playerByEid.get(attacker));
}

export function startFight(world: GameWorld, attacker: number, target: number): void {
  const fights = world.get(COMBAT).fights;
  const had = fights.get(attacker);
  fights.set(attacker, {
    targetEid: target,
    targetId: world.wireIds[target] as string,
    chaseX: Number.NaN,
    chaseZ: Number.NaN,
  });
  if (had?.targetEid !== target) markDirty(world, attacker, Dirty.target);
}

export function stopFight(world: GameWorld, attacker: number): void {
  if (world.get(COMBAT).fights.delete(attacker) && world.wireIds[attacker] !== undefined)
    markDirty(world, attacker, Dirty.target);
}

/** The wire id of the entity this one fights, or null (world:update `targetId`). */
export function targetIdOf(world: GameWorld, eid: number): string | null {
  return world.get(COMBAT).fights.get(eid)?.targetId ?? null;
}
