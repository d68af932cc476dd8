/** What other features may use of equipment. */
export { equipmentBonuses } from './equip.ts';
export { equipment } from './feature.ts';
