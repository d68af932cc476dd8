/** What other features may use of gathering. */
export { gathering } from './feature.ts';
export { isGathering, stopGathering } from './gather.ts';
export { GATHERING } from './state.ts';
export { bestTool, owns } from './tools.ts';
