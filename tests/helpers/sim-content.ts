import type { ItemInfo, NpcInfo, NpcSpawn, SimContent, WorldArea } from '../../ecs/core/content.ts';
import { TileMap } from '../../ecs/core/tile-map.ts';

/** A small hand-built content for scenario tests: a 200x200 open field, spawn at (100, 100). */

const item = (p: Partial<ItemInfo> & Pick<ItemInfo, 'id'>): ItemInfo => ({
  name: p.id,
  stackable: false,
  value: 1,
  tradeable: true,
  equipSlot: null,
  twoHanded: false,
  healAmount: 0,
  requirements: {},
  bonuses: {},
  ...p,
});

export const TEST_ITEMS: readonly ItemInfo[] = [
  item({ id: 'coins', name: 'Coins', stackable: true, value: 1 }),
  item({
    id: 'bronze_sword',
    name: 'Bronze sword',
    value: 100,
    equipSlot: 'weapon',
    bonuses: { attack: 4, strength: 3 },
  }),
  item({
    id: 'steel_sword',
    name: 'Steel sword',
    value: 500,
    equipSlot: 'weapon',
    requirements: { attack: 5 },
  }),
  item({ id: 'bronze_2h', name: 'Bronze two-hander', value: 200, equipSlot: 'weapon', twoHanded: true }),
  item({
    id: 'wooden_shield',
    name: 'Wooden shield',
    value: 40,
    equipSlot: 'shield',
    bonuses: { defense: 2 },
  }),
  item({ id: 'logs', name: 'Logs', value: 10 }),
  item({ id: 'feather', name: 'Feather', stackable: true, value: 2 }),
  item({ id: 'shrimp', name: 'Shrimp', value: 10, healAmount: 3 }),
  item({ id: 'bones', name: 'Bones', value: 1 }),
  item({ id: 'quest_medal', name: 'Quest medal', value: 0, tradeable: false }),
];

export const TEST_NPCS: readonly NpcInfo[] = [
  {
    id: 'goblin',
    name: 'Goblin',
    category: 'mob',
    level: 2,
    health: 5,
    attackable: true,
    aggressive: false,
    wanderRadius: 5,
    respawnTicks: 20,
    combat: {
      attack: 1,
      strength: 1,
      defense: 1,
      attackBonus: 0,
      strengthBonus: 0,
      defenseBonus: 0,
      retaliates: true,
      aggroRange: 0,
      combatRange: 1,
      leashRange: 10,
      attackSpeedTicks: 4,
    },
    drops: {
      defaultDrop: { itemId: 'bones', quantity: 1 },
      always: [],
      tiers: [[{ itemId: 'coins', minQuantity: 1, maxQuantity: 9, chance: 0.5 }], [], [], []],
    },
  },
  {
    id: 'banker',
    name: 'Banker',
    category: 'neutral',
    level: 1,
    health: 10,
    attackable: false,
    aggressive: false,
    wanderRadius: 0,
    respawnTicks: 0,
  },
];

export interface TestContentOptions {
  size?: number;
  npcSpawns?: NpcSpawn[];
  /** Tiles to block, as [x, z] pairs. */
  blocked?: [number, number][];
  worldAreas?: WorldArea[];
}

export function testContent(opts: TestContentOptions = {}): SimContent {
  const size = opts.size ?? 200;
  const map = new TileMap(0, 0, size, size);
  for (const [x, z] of opts.blocked ?? []) map.setBlocked(x, z);
  const half = Math.floor(size / 2);
  return {
    items: new Map(TEST_ITEMS.map((i) => [i.id, i])),
    npcs: new Map(TEST_NPCS.map((n) => [n.id, n])),
    spawn: { x: half, z: half },
    map,
    npcSpawns: opts.npcSpawns ?? [
      { npcId: 'banker', x: half + 3, z: half, count: 1, radius: 0, service: 'bank' },
      { npcId: 'goblin', x: half + 20, z: half + 20, count: 3, radius: 5 },
    ],
    resourceSpawns: [],
    stationSpawns: [{ type: 'bank', x: half - 3, z: half }],
    starterInventory: [{ itemId: 'bronze_sword', quantity: 1 }],
    // A town around the spawn and a field east of it; the rest of the map is in no area.
    worldAreas: opts.worldAreas ?? [
      { id: 'town', name: 'Town', minX: half - 10, maxX: half + 10, minZ: half - 10, maxZ: half + 10 },
      { id: 'field', name: 'Field', minX: half + 11, maxX: half + 40, minZ: half - 10, maxZ: half + 10 },
    ],
  };
}
