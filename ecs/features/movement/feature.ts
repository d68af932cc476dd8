import { defineFeature } from '../../core/feature.ts';
import type { Hasher } from '../../core/hasher.ts';
import type { GameWorld } from '../../core/world.ts';
import { moveCancelCommand, moveCommand } from './move-handlers.ts';
import { movementSystem } from './movement-system.ts';
import { pathfindingSystem, prepareMovement } from './pathfinding-system.ts';
import { movementPersist } from './persist.ts';
import { onJoin, onLeave, onLevelChanged, runEnergy, runEnergySystem } from './run-energy.ts';
import { MOVE } from './state.ts';
import { movementWire } from './wire.ts';

/** Walking and running on server-computed paths: `move`, `moveCancel`, A* within a per-tick budget. */
export const movement = defineFeature({
  name: 'movement',
  state: MOVE,
  commands: { move: moveCommand, moveCancel: moveCancelCommand },
  systems: [
    { name: 'pathfinding', phase: 'pathfinding', run: pathfindingSystem },
    { name: 'movement', phase: 'movement', run: movementSystem },
    { name: 'runEnergy', phase: 'movement', run: runEnergySystem },
  ],
  on: { join: onJoin, leave: onLeave, levelChanged: onLevelChanged },
  populate: prepareMovement,
  hash: hashPaths,
  wire: movementWire,
  persist: movementPersist,
});

/**
 * Paths of entities on the move (an idle entity's slot may hold a stale one: not state), and every
 * player's run energy.
 */
function hashPaths(world: GameWorld, h: Hasher): void {
  const { paths, queue, head } = world.get(MOVE);
  const mode = world.c.Movement.mode;
  for (let eid = 0; eid < world.wireIds.length; eid++) {
    if (world.wireIds[eid] === undefined || mode[eid] === 0) continue;
    const path = paths[eid];
    h.int(eid);
    if (path) for (let i = 0; i < path.length; i++) h.int(path[i] as number);
  }
  h.int(queue.length - head);
  for (const p of world.players.values()) h.int(runEnergy(world, p));
}
