import { query } from 'bitecs';
import { MoveMode } from '../../core/components.ts';
import type { GameWorld } from '../../core/world.ts';
import { hasPendingPath, requestPath } from '../movement/index.ts';
import { WANDER_MAX_WAIT, WANDER_MIN_WAIT } from './populate.ts';

/**
 * Idle NPCs with a wander radius pick, every few ticks, a random walkable tile within that radius of
 * their origin and walk there through the normal path queue (short paths, so cheap). Uses only the
 * world's generator, in query order: deterministic.
 */
export function wanderSystem(world: GameWorld): void {
  const { c } = world;
  const w = c.Wander;
  const map = world.content.map;
  const eids = query(world.ecs, [c.Wander]);
  for (let i = 0; i < eids.length; i++) {
    const eid = eids[i] as number;
    if ((w.nextTick[eid] as number) > world.tick) continue;
    if (c.Movement.mode[eid] !== MoveMode.idle || hasPendingPath(world, eid)) continue;
    w.nextTick[eid] = world.tick + world.rng.int(WANDER_MIN_WAIT, WANDER_MAX_WAIT);
    const r = w.radius[eid] as number;
    const x = (w.originX[eid] as number) + world.rng.int(-r, r);
    const z = (w.originZ[eid] as number) + world.rng.int(-r, r);
    if (map.isWalkable(x, z)) requestPath(world, eid, x, z, false, null);
  }
}
