import type { SimContent } from '../../ecs/core/content.ts';
import type { StoreInfo } from '../../ecs/features/shops/content.ts';
import { TEST_NPCS, testContent } from './sim-content.ts';

/**
 * Test content with shops: the spawn is (100, 100); Gina keeps `general` (buys back at 0.5) at
 * (102, 100), Lars keeps `limited` (3 logs restocking every 6 s = 10 ticks, no buyback) at (100, 110).
 */
export const TEST_STORES: readonly StoreInfo[] = [
  {
    id: 'general',
    name: 'General store',
    buyback: true,
    buybackRate: 0.5,
    items: [
      { itemId: 'feather', price: 3, stockQuantity: -1, restockTime: 0 },
      { itemId: 'shrimp', price: 20, stockQuantity: -1, restockTime: 0 },
      { itemId: 'logs', price: 15, stockQuantity: 5, restockTime: 6 },
    ],
  },
  {
    id: 'limited',
    name: 'Limited store',
    buyback: false,
    buybackRate: 0.5,
    items: [{ itemId: 'logs', price: 10, stockQuantity: 3, restockTime: 6 }],
  },
];

export function shopContent(): SimContent {
  const base = testContent({
    npcSpawns: [
      { npcId: 'shopkeeper', x: 102, z: 100, count: 1, radius: 0, service: 'store', storeId: 'general' },
      { npcId: 'shopkeeper', x: 100, z: 110, count: 1, radius: 0, service: 'store', storeId: 'limited' },
      { npcId: 'banker', x: 97, z: 104, count: 1, radius: 0, service: 'bank' },
    ],
  });
  const keeper = { ...(TEST_NPCS[1] as (typeof TEST_NPCS)[number]), id: 'shopkeeper', name: 'Shopkeeper' };
  return {
    ...base,
    npcs: new Map([...base.npcs, ['shopkeeper', keeper]]),
    stores: new Map(TEST_STORES.map((s) => [s.id, s])),
  };
}
