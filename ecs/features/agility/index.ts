/** What other features may use of agility. */

export { fallChance } from './crossing.ts';
export { agility } from './feature.ts';
