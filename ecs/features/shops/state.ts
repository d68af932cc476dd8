import { defineState } from '../../core/feature.ts';

/** How far (Chebyshev tiles) from the keeper a shop stays open. */
export const SHOP_RANGE = 2;

/** One item's live stock in one shop. */
export interface StockEntry {
  /** Units on the shelf; -1 unlimited. */
  stock: number;
  /** The tick of the next restock step, or null while the stock is at its manifest quantity. */
  nextRestockTick: number | null;
}

export interface OpenShop {
  shopId: string;
  /** The keeper NPC's wire id (the shop closes when the player is farther than SHOP_RANGE from it). */
  keeperId: string;
}

export interface ShopsState {
  /** Stock by shop id, then item id (created on first use of a shop, from the manifest). */
  readonly stock: Map<string, Map<string, StockEntry>>;
  /** Open shop by character id. */
  readonly open: Map<string, OpenShop>;
  /** True while this feature asks the item locks for its own command (its own lock does not count). */
  selfCheck: boolean;
}

export const SHOPS = defineState<ShopsState>('shops', () => ({
  stock: new Map(),
  open: new Map(),
  selfCheck: false,
}));
