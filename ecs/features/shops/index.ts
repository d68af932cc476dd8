/** What other features may use of the shops. */
export { shops } from './feature.ts';
export { closeShop, openShop, restockShop } from './shop.ts';
export { SHOP_RANGE } from './state.ts';
