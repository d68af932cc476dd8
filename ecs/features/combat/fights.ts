import { Dirty, EntityType } from '../../core/components.ts';
import type { GameWorld, PlayerData } from '../../core/world.ts';
import { markDirty } from '../../core/world.ts';
import { COMBAT } from './state.ts';

/** Who fights whom: starting and stopping a fight (its `targetId` is replicated), and who sees an entity. */

/** Every player who sees this entity (within view distance of it). */
export function forEachViewer(world: GameWorld, eid: number, visit: (p: PlayerData) => void): void {
  const p = world.c.Position;
  const x = p.x[eid] as number;
  const z = p.z[eid] as number;
  const r = world.viewDistance;
  const kind = world.c.Kind.type;
  world.grid.forEachInSquare(x, z, r, (other) => {
    if (kind[other] !== EntityType.player) return;
    if (Math.max(Math.abs((p.x[other] as number) - x), Math.abs((p.z[other] as number) - z)) > r) return;
    const viewer = world.playerByEid.get(other);
    if (viewer) visit(viewer);
  });
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
