/** What other features may use of death. */
export { death } from './feature.ts';
