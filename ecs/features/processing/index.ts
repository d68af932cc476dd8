/** What other features may use of processing. */
export { processing } from './feature.ts';
export { burnChance, stopMaking } from './make.ts';
export { MAX_QUANTITY, PROCESSING } from './state.ts';
