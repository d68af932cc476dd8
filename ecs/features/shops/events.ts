/** The shops' events (added to core/events.ts's SimEventData). */

export interface ShopItemView {
  itemId: string;
  price: number;
  /** -1: unlimited. */
  stock: number;
}

declare module '../../core/events.ts' {
  interface SimEventData {
    shopOpen: { shopId: string; name: string; items: ShopItemView[]; buyback: boolean; sellRate: number };
    shopUpdate: { shopId: string; items: ShopItemView[] };
    shopClosed: { shopId: string };
  }
}
