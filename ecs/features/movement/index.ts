/** What other features may use of movement. */
export { movement } from './feature.ts';
export { surelyUnreachable } from './pathfinding-system.ts';
export { cancelMovement, dropPath, hasPendingPath, requestPath } from './requests.ts';
export { MAX_RUN_ENERGY, RUN_DRAIN, restorePerTick, runEnergy, runEnergyPercent } from './run-energy.ts';
export { MAX_MOVE_DISTANCE } from './state.ts';
