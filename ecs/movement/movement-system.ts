import { query } from 'bitecs';
import { Dirty, MoveMode } from '../components.ts';
import { stateChanged } from '../players.ts';
import { type GameWorld, markDirty, markPosition } from '../world.ts';

// Imported bindings are getters under tsx's module transform: copy hot constants into locals once.
const IDLE = MoveMode.idle;
const RUN = MoveMode.run;
const MOVING = Dirty.moving;

/** Tiles advanced per tick (contract §2.1). */
export const WALK_TILES = 2;
export const RUN_TILES = 4;

/**
 * Advances every walking or running entity along its path: 2 tiles a tick walking, 4 running. Only the
 * tile reached at the end of the tick is replicated. An entity whose path was dropped (cancel, new move)
 * stops here.
 */
export function movementSystem(world: GameWorld): void {
  const { c, paths } = world;
  const mv = c.Movement;
  const eids = query(world.ecs, [c.Movement]);
  for (let i = 0; i < eids.length; i++) {
    const eid = eids[i] as number;
    const mode = mv.mode[eid] as number;
    if (mode === IDLE) continue;
    const path = paths[eid];
    if (path === null || path === undefined) {
      mv.mode[eid] = IDLE;
      markDirty(world, eid, MOVING);
      continue;
    }
    const tiles = path.length >> 1;
    const step = Math.min(tiles, (mv.step[eid] as number) + (mode === RUN ? RUN_TILES : WALK_TILES));
    mv.step[eid] = step;
    markPosition(world, eid, path[(step - 1) * 2] as number, path[(step - 1) * 2 + 1] as number);
    const player = world.playerByEid.get(eid);
    if (player !== undefined) stateChanged(world, player);
    if (step >= tiles) {
      paths[eid] = null;
      mv.mode[eid] = IDLE;
      markDirty(world, eid, MOVING);
    }
  }
}
