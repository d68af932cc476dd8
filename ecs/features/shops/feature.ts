import { defineFeature } from '../../core/feature.ts';
import type { Hasher } from '../../core/hasher.ts';
import type { GameWorld } from '../../core/world.ts';
import { inventory } from '../inventory/index.ts';
import { npcs } from '../npcs/index.ts';
import { shopsContent } from './content.ts';
import {
  handleShopBuy,
  handleShopClose,
  handleShopSell,
  onActionStarted,
  onDeath,
  onInterfaceOpened,
  onLeave,
  openShop,
  shopLock,
  shopsSystem,
} from './shop.ts';
import { SHOPS } from './state.ts';
import { shopsWire } from './wire.ts';

/** Shops: open at the keeper, buy and sell through item transactions, stock and restock. */
export const shops = defineFeature({
  name: 'shops',
  state: SHOPS,
  commands: { shopBuy: handleShopBuy, shopSell: handleShopSell, shopClose: handleShopClose },
  actions: { shop: { reach: 1, run: openShop } },
  systems: [{ name: 'shops', phase: 'interactions', run: shopsSystem }],
  on: {
    itemsLocked: shopLock,
    interfaceOpened: onInterfaceOpened,
    actionStarted: onActionStarted,
    leave: onLeave,
    death: onDeath,
  },
  hash: hashShops,
  uses: [npcs, inventory],
  wire: shopsWire,
  content: shopsContent,
});

function hashShops(world: GameWorld, h: Hasher): void {
  const state = world.get(SHOPS);
  for (const [shopId, stock] of state.stock) {
    h.str(shopId);
    for (const [itemId, e] of stock) {
      h.str(itemId);
      h.int(e.stock);
      h.int(e.nextRestockTick ?? -1);
    }
  }
  for (const [id, open] of state.open) {
    h.str(id);
    h.str(open.shopId);
    h.str(open.keeperId);
  }
}
