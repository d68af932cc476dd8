/** What other features may use of admin. */
export { admin } from './feature.ts';
