import { defineFeature } from '../../core/feature.ts';
import type { Hasher } from '../../core/hasher.ts';
import type { GameWorld } from '../../core/world.ts';
import { inventory } from '../inventory/index.ts';
import { handleInventoryDrop } from './drop.ts';
import { groundItemsSystem, groundItemVisibleTo } from './ground-items.ts';
import { handlePickup, PICKUP_RANGE } from './pickup.ts';
import { GROUND_ITEMS } from './state.ts';
import { groundItemsWire } from './wire.ts';

/** Items on the ground: dropping, owner-only then public, despawn, and `player:action pickup`. */
export const groundItems = defineFeature({
  name: 'groundItems',
  state: GROUND_ITEMS,
  commands: { inventoryDrop: handleInventoryDrop },
  actions: { pickup: { reach: PICKUP_RANGE, run: handlePickup, changesItems: true } },
  systems: [{ name: 'items', phase: 'items', run: groundItemsSystem }],
  // An item still private to its owner is out of everyone else's view (replication hides it the same way).
  on: {
    hides: (world, eid, viewer) =>
      world.get(GROUND_ITEMS).byEid.has(eid) && !groundItemVisibleTo(world, eid, viewer.characterId),
  },
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
