import { defineFeature } from '../../core/feature.ts';
import type { Hasher } from '../../core/hasher.ts';
import type { GameWorld } from '../../core/world.ts';
import { inventory } from '../inventory/index.ts';
import { handleInventoryDrop } from './drop.ts';
import { groundItemsSystem } from './ground-items.ts';
import { handlePickup, PICKUP_RANGE } from './pickup.ts';
import { GROUND_ITEMS } from './state.ts';
import { groundItemsWire } from './wire.ts';

/** Items on the ground: dropping, owner-only then public, despawn, and `player:action pickup`. */
export const groundItems = defineFeature({
  name: 'groundItems',
  state: GROUND_ITEMS,
  commands: { inventoryDrop: handleInventoryDrop },
  actions: { pickup: { reach: PICKUP_RANGE, run: handlePickup } },
  systems: [{ name: 'items', phase: 'items', run: groundItemsSystem }],
  hash: hashGroundItems,
  uses: [inventory],
  wire: groundItemsWire,
});

function hashGroundItems(world: GameWorld, h: Hasher): void {
  for (const g of world.get(GROUND_ITEMS).byEid.values()) {
    h.int(g.eid);
    h.json([g.itemId, g.quantity, g.ownerId, g.publicAtTick, g.despawnAtTick, g.deathLockId ?? null]);
  }
}
