import { query } from 'bitecs';
import { Dirty, EntityType, MoveMode } from '../../core/components.ts';
import { stateChanged } from '../../core/players.ts';
import type { GameWorld } from '../../core/world.ts';
import { drainRunner } from './run-energy.ts';
import { MOVE } from './state.ts';

// Imported bindings are getters under tsx's module transform: copy hot constants into locals once.
const IDLE = MoveMode.idle;
const WALK = MoveMode.walk;
const RUN = MoveMode.run;
const MOVING = Dirty.moving;
const POSITION = Dirty.position;
const PLAYER = EntityType.player;

/** Tiles advanced per tick (contract §2.1). */
export const WALK_TILES = 2;
export const RUN_TILES = 4;

/**
 * Advances every walking or running entity along its path: 2 tiles a tick walking, 4 running. Only the
 * tile reached at the end of the tick is replicated. An entity whose path was dropped (cancel, new move)
 * stops here. A running player pays run energy for the tick; without enough it walks from now on. The
 * per-entity work is inlined (this is markPosition/markDirty of world.ts): it runs for every mover every
 * tick.
 */
export function movementSystem(world: GameWorld): void {
  const { c, grid } = world;
  const { paths, energy } = world.get(MOVE);
  const mode = c.Movement.mode;
  const stepOf = c.Movement.step;
  const px = c.Position.x;
  const pz = c.Position.z;
  const kind = c.Kind.type;
  const dirty = c.Replicated.dirty;
  const changed = world.changed;
  const eids = query(world.ecs, [c.Movement]);
  for (let i = 0; i < eids.length; i++) {
    const eid = eids[i] as number;
    let m = mode[eid] as number;
    if (m === IDLE) continue;
    const path = paths[eid];
    let bits = 0;
    if (m === RUN && path && !drainRunner(world, energy, eid)) {
      m = WALK;
      mode[eid] = WALK;
      bits = MOVING;
    }
    if (path === null || path === undefined) {
      mode[eid] = IDLE;
      bits = MOVING;
    } else {
      const tiles = path.length >> 1;
      const step = Math.min(tiles, (stepOf[eid] as number) + (m === RUN ? RUN_TILES : WALK_TILES));
      stepOf[eid] = step;
      const x = path[(step - 1) * 2] as number;
      const z = path[(step - 1) * 2 + 1] as number;
      if (px[eid] !== x || pz[eid] !== z) {
        px[eid] = x;
        pz[eid] = z;
        grid.move(eid, x, z);
        bits = POSITION;
        if (kind[eid] === PLAYER) {
          const player = world.playerByEid.get(eid);
          if (player !== undefined) stateChanged(world, player);
        }
      }
      if (step >= tiles) {
        paths[eid] = null;
        mode[eid] = IDLE;
        bits |= MOVING;
      }
    }
    if (bits !== 0) {
      if (dirty[eid] === 0) changed.push(eid);
      dirty[eid] = (dirty[eid] as number) | bits;
    }
  }
}
