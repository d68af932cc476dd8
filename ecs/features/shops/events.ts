import type { z } from 'zod';
import type { shopClosed, shopItem, shopOpen, shopUpdate } from './wire.ts';

/** One item of a shop as a browser sees it (`stock` -1: unlimited). */
export type ShopItemView = z.output<typeof shopItem>;

/** The shops' events (added to core/events.ts's SimEventData), typed by their wire schemas. */
declare module '../../core/events.ts' {
  interface SimEventData {
    shopOpen: z.output<typeof shopOpen>;
    shopUpdate: z.output<typeof shopUpdate>;
    shopClosed: z.output<typeof shopClosed>;
  }
}
