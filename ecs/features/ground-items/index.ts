/** What other features and adapters may use of ground items. */
export { groundItems } from './feature.ts';
export { groundItemVisibleTo, removeGroundItem, spawnGroundItem } from './ground-items.ts';
export { GROUND_ITEMS, type GroundItemData } from './state.ts';
