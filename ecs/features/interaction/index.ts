/** What other features may use of interactions. */
export { interaction } from './feature.ts';
