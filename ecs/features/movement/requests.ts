import { MoveMode } from '../../core/components.ts';
import type { GameWorld } from '../../core/world.ts';
import { MOVE } from './state.ts';

/** Ask for a path for an entity; replaces any pending request and drops its current path. */
export function requestPath(
  world: GameWorld,
  eid: number,
  x: number,
  z: number,
  run: boolean,
  reportTo: string | null,
  origin?: string,
): void {
  const ms = world.get(MOVE);
  const wireId = world.wireIds[eid];
  if (wireId === undefined) return;
  const seq = ms.nextSeq++;
  ms.seq[eid] = seq;
  world.get(MOVE).paths[eid] = null;
  world.c.Movement.step[eid] = 0;
  ms.queue.push({ eid, wireId, seq, x, z, run, reportTo, origin });
}

/** Stop an entity: its pending request is forgotten and the movement system halts it this tick. */
export function cancelMovement(world: GameWorld, eid: number): void {
  world.get(MOVE).seq[eid] = 0;
  world.get(MOVE).paths[eid] = null;
}

/** Whether the entity has a path request waiting or being searched. */
export function hasPendingPath(world: GameWorld, eid: number): boolean {
  return world.get(MOVE).seq[eid] !== 0;
}

/** Stop an entity where it stands at once (teleport, respawn): no path, idle this tick. */
export function dropPath(world: GameWorld, eid: number): void {
  world.get(MOVE).paths[eid] = null;
  world.c.Movement.mode[eid] = MoveMode.idle;
}
