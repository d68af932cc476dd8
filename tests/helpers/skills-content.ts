import type { ItemInfo, SimContent } from '../../ecs/core/content.ts';
import type { GatheringNode, HarvestYield, ToolInfo } from '../../ecs/features/gathering/content.ts';
import type { RecipeInfo } from '../../ecs/features/processing/content.ts';
import { TEST_ITEMS, testContent } from './sim-content.ts';

/**
 * Scenario content for the skills: the test field of sim-content.ts plus tools, trees, a rock, fishing
 * spots, stations and one recipe of every kind, near the spawn (100, 100).
 */

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

export const SKILL_ITEMS: readonly ItemInfo[] = [
  item({ id: 'bronze_hatchet', name: 'Bronze hatchet', equipSlot: 'weapon' }),
  item({ id: 'iron_hatchet', name: 'Iron hatchet', equipSlot: 'weapon' }),
  item({ id: 'bronze_pickaxe', name: 'Bronze pickaxe', equipSlot: 'weapon' }),
  item({ id: 'iron_pickaxe', name: 'Iron pickaxe', equipSlot: 'weapon' }),
  item({ id: 'small_net', name: 'Small net' }),
  item({ id: 'fishing_rod', name: 'Fishing rod' }),
  item({ id: 'fishing_bait', name: 'Fishing bait', stackable: true }),
  item({ id: 'oak_logs', name: 'Oak logs' }),
  item({ id: 'copper_ore', name: 'Copper ore' }),
  item({ id: 'tin_ore', name: 'Tin ore' }),
  item({ id: 'uncut_gem', name: 'Uncut gem' }),
  item({ id: 'bronze_bar', name: 'Bronze bar' }),
  item({ id: 'bronze_dagger', name: 'Bronze dagger', equipSlot: 'weapon' }),
  item({ id: 'hammer', name: 'Hammer' }),
  item({ id: 'tinderbox', name: 'Tinderbox' }),
  item({ id: 'knife', name: 'Knife' }),
  item({ id: 'needle', name: 'Needle' }),
  item({ id: 'thread', name: 'Thread', stackable: true }),
  item({ id: 'cowhide', name: 'Cowhide' }),
  item({ id: 'leather', name: 'Leather' }),
  item({ id: 'leather_gloves', name: 'Leather gloves', equipSlot: 'gloves' }),
  item({ id: 'arrow_shaft', name: 'Arrow shaft', stackable: true }),
  item({ id: 'raw_shrimp', name: 'Raw shrimp' }),
  item({ id: 'burnt_shrimp', name: 'Burnt shrimp' }),
  item({ id: 'raw_trout', name: 'Raw trout' }),
  item({ id: 'rune_essence', name: 'Rune essence' }),
  item({ id: 'air_rune', name: 'Air rune', stackable: true }),
];

const y = (p: Partial<HarvestYield> & Pick<HarvestYield, 'itemId'>): HarvestYield => ({
  quantity: 1,
  chance: 1,
  xp: 25,
  levelRequired: 1,
  catchLow: null,
  catchHigh: null,
  ...p,
});

const node = (p: Partial<GatheringNode> & Pick<GatheringNode, 'id' | 'skill' | 'yields'>): GatheringNode => ({
  name: p.id,
  toolRequired: 'bronze_hatchet',
  secondaryRequired: null,
  levelRequired: 1,
  baseCycleTicks: 4,
  depleteChance: 0,
  respawnTicks: 0,
  moveTicks: 0,
  moveRadius: 3,
  ...p,
});

export const SKILL_NODES: readonly GatheringNode[] = [
  node({ id: 'tree_normal', name: 'Tree', skill: 'woodcutting', yields: [y({ itemId: 'logs' })] }),
  node({
    id: 'tree_oak',
    name: 'Oak',
    skill: 'woodcutting',
    levelRequired: 15,
    depleteChance: 1,
    respawnTicks: 10,
    yields: [y({ itemId: 'oak_logs', xp: 37.5 })],
  }),
  node({
    id: 'rock_copper',
    name: 'Copper rock',
    skill: 'mining',
    toolRequired: 'pickaxe',
    depleteChance: 1,
    respawnTicks: 5,
    yields: [y({ itemId: 'copper_ore', xp: 17.5 }), y({ itemId: 'uncut_gem', chance: 0.5, xp: 0 })],
  }),
  // Certain catches (255/256 + 1): cycle timing without luck.
  node({
    id: 'spot_net',
    name: 'Net spot',
    skill: 'fishing',
    toolRequired: 'small_net',
    baseCycleTicks: 5,
    yields: [y({ itemId: 'raw_shrimp', xp: 10, catchLow: 255, catchHigh: 255 })],
  }),
  node({
    id: 'spot_bait',
    name: 'Bait spot',
    skill: 'fishing',
    toolRequired: 'fishing_rod',
    secondaryRequired: 'fishing_bait',
    baseCycleTicks: 5,
    yields: [y({ itemId: 'raw_trout', xp: 50, catchLow: 255, catchHigh: 255 })],
  }),
  node({
    id: 'spot_moving',
    name: 'Restless spot',
    skill: 'fishing',
    toolRequired: 'small_net',
    baseCycleTicks: 5,
    moveTicks: 20,
    moveRadius: 2,
    yields: [y({ itemId: 'raw_shrimp', xp: 10, catchLow: 255, catchHigh: 255 })],
  }),
];

const tool = (p: Partial<ToolInfo> & Pick<ToolInfo, 'itemId' | 'skill'>): ToolInfo => ({
  tier: null,
  levelRequired: 1,
  priority: 1,
  rollTicks: null,
  bonusTickChance: 0,
  bonusRollTicks: null,
  ...p,
});

export const SKILL_TOOLS: readonly ToolInfo[] = [
  tool({ itemId: 'bronze_hatchet', skill: 'woodcutting', tier: 'bronze', priority: 2 }),
  tool({ itemId: 'iron_hatchet', skill: 'woodcutting', tier: 'iron', priority: 1, levelRequired: 5 }),
  tool({ itemId: 'bronze_pickaxe', skill: 'mining', tier: 'bronze', priority: 2, rollTicks: 6 }),
  tool({
    itemId: 'iron_pickaxe',
    skill: 'mining',
    tier: 'iron',
    priority: 1,
    rollTicks: 3,
    levelRequired: 5,
  }),
  tool({ itemId: 'small_net', skill: 'fishing' }),
  tool({ itemId: 'fishing_rod', skill: 'fishing' }),
];

const recipe = (p: Partial<RecipeInfo> & Pick<RecipeInfo, 'kind' | 'id'>): RecipeInfo => ({
  skill: p.kind === 'smelting' ? 'smithing' : p.kind === 'tanning' ? null : (p.kind as RecipeInfo['skill']),
  level: 1,
  xp: 10,
  ticks: 4,
  inputs: [],
  anyOf: [],
  tools: [],
  consumables: [],
  outputs: [{ itemId: p.id, quantity: 1 }],
  stations: [],
  burnt: null,
  stopBurnLevel: {},
  successRate: 1,
  coins: 0,
  fireTicks: 0,
  multiLevels: [],
  ...p,
});

export const SKILL_RECIPES: readonly RecipeInfo[] = [
  recipe({
    kind: 'cooking',
    id: 'shrimp',
    xp: 30,
    inputs: [{ itemId: 'raw_shrimp', quantity: 1 }],
    stations: ['fire', 'range'],
    burnt: 'burnt_shrimp',
    stopBurnLevel: { fire: 34, range: 30 },
  }),
  recipe({
    kind: 'cooking',
    id: 'trout',
    level: 15,
    xp: 70,
    inputs: [{ itemId: 'raw_trout', quantity: 1 }],
    stations: ['fire', 'range'],
    burnt: 'burnt_shrimp',
    stopBurnLevel: { fire: 49, range: 46 },
  }),
  recipe({
    kind: 'firemaking',
    id: 'logs',
    xp: 40,
    inputs: [{ itemId: 'logs', quantity: 1 }],
    tools: ['tinderbox'],
    outputs: [],
    fireTicks: 30,
  }),
  recipe({
    kind: 'smelting',
    id: 'bronze_bar',
    xp: 6.25,
    inputs: [
      { itemId: 'copper_ore', quantity: 1 },
      { itemId: 'tin_ore', quantity: 1 },
    ],
    stations: ['furnace'],
  }),
  recipe({
    kind: 'smithing',
    id: 'bronze_dagger',
    xp: 12.5,
    inputs: [{ itemId: 'bronze_bar', quantity: 1 }],
    tools: ['hammer'],
    stations: ['anvil'],
  }),
  recipe({
    kind: 'crafting',
    id: 'leather_gloves',
    xp: 13.8,
    ticks: 3,
    inputs: [{ itemId: 'leather', quantity: 1 }],
    tools: ['needle'],
    consumables: [{ itemId: 'thread', uses: 2 }],
  }),
  recipe({
    kind: 'fletching',
    id: 'arrow_shaft',
    xp: 5,
    ticks: 3,
    inputs: [{ itemId: 'logs', quantity: 1 }],
    tools: ['knife'],
    outputs: [{ itemId: 'arrow_shaft', quantity: 15 }],
  }),
  // A stackable input and an unstackable output: the batch can fill the inventory.
  recipe({
    kind: 'crafting',
    id: 'uncut_gem',
    ticks: 2,
    inputs: [{ itemId: 'fishing_bait', quantity: 5 }],
  }),
  recipe({
    kind: 'tanning',
    id: 'leather',
    xp: 0,
    ticks: 1,
    inputs: [{ itemId: 'cowhide', quantity: 1 }],
    coins: 2,
  }),
  recipe({
    kind: 'runecrafting',
    id: 'air_rune',
    xp: 5,
    ticks: 1,
    anyOf: ['rune_essence'],
    stations: ['altar'],
    multiLevels: [11, 22],
  }),
];

/** Where the content puts things (the spawn is (100, 100)). */
export const AT = {
  tree: { x: 105, z: 100 },
  oak: { x: 108, z: 100 },
  rock: { x: 105, z: 104 },
  net: { x: 95, z: 100 },
  bait: { x: 95, z: 104 },
  moving: { x: 90, z: 108 },
  furnace: { x: 100, z: 110 },
  anvil: { x: 103, z: 110 },
  range: { x: 106, z: 110 },
  altar: { x: 109, z: 110 },
} as const;

export function skillsContent(): SimContent {
  const base = testContent({ npcSpawns: [] });
  return {
    ...base,
    items: new Map([...TEST_ITEMS, ...SKILL_ITEMS].map((i) => [i.id, i])),
    resourceSpawns: [
      { resourceId: 'tree_normal', kind: 'tree', ...AT.tree },
      { resourceId: 'tree_oak', kind: 'tree', ...AT.oak },
      { resourceId: 'rock_copper', kind: 'ore', ...AT.rock },
      { resourceId: 'spot_net', kind: 'fishing', ...AT.net },
      { resourceId: 'spot_bait', kind: 'fishing', ...AT.bait },
      { resourceId: 'spot_moving', kind: 'fishing', ...AT.moving },
    ],
    stationSpawns: [
      { type: 'furnace', ...AT.furnace },
      { type: 'anvil', ...AT.anvil },
      { type: 'range', ...AT.range },
      { type: 'altar', ...AT.altar },
    ],
    gatheringNodes: new Map(SKILL_NODES.map((n) => [n.id, n])),
    tools: SKILL_TOOLS,
    recipes: SKILL_RECIPES,
  };
}
