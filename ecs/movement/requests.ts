import type { GameWorld } from '../world.ts';

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
  const ms = world.move;
  const wireId = world.wireIds[eid];
  if (wireId === undefined) return;
  const seq = ms.nextSeq++;
  ms.seq[eid] = seq;
  world.paths[eid] = null;
  world.c.Movement.step[eid] = 0;
  ms.queue.push({ eid, wireId, seq, x, z, run, reportTo, origin });
}

/** Stop an entity: its pending request is forgotten and the movement system halts it this tick. */
export function cancelMovement(world: GameWorld, eid: number): void {
  world.move.seq[eid] = 0;
  world.paths[eid] = null;
}

/** Whether the entity has a path request waiting or being searched. */
export function hasPendingPath(world: GameWorld, eid: number): boolean {
  return world.move.seq[eid] !== 0;
}
