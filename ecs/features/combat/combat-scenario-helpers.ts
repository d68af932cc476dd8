import { testContent } from '../../../tests/helpers/sim-content.ts';
import type { ItemInfo, NpcCombatInfo, NpcInfo, NpcSpawn, SimContent } from '../../core/content.ts';
import type { PrayerInfo } from '../prayer/content.ts';

/**
 * Scenario content for combat: the test field with fighting NPCs (a passive rat with bones and coins, an
 * aggressive wolf, a strong brute), a safe town around the spawn and a PvP field to the east.
 */

const fighter = (over: Partial<NpcCombatInfo> = {}): NpcCombatInfo => ({
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
  ...over,
});

export const COMBAT_NPCS: readonly NpcInfo[] = [
  {
    id: 'archer',
    name: 'Bandit archer',
    category: 'mob',
    level: 10,
    health: 20,
    attackable: true,
    aggressive: true,
    wanderRadius: 0,
    respawnTicks: 10,
    combat: fighter({
      aggroRange: 6,
      combatRange: 7,
      attackType: 'ranged',
      ranged: 30,
      arrowId: 'bronze_arrow',
    }),
  },
  {
    id: 'dummy',
    name: 'Training dummy',
    category: 'mob',
    level: 1,
    health: 1000,
    attackable: true,
    aggressive: false,
    wanderRadius: 0,
    respawnTicks: 10,
    combat: fighter({ retaliates: false }),
  },
  {
    id: 'rat',
    name: 'Rat',
    category: 'mob',
    level: 1,
    health: 5,
    attackable: true,
    aggressive: false,
    wanderRadius: 0,
    respawnTicks: 10,
    combat: fighter(),
    drops: {
      defaultDrop: { itemId: 'bones', quantity: 1 },
      always: [{ itemId: 'feather', minQuantity: 2, maxQuantity: 2, chance: 1 }],
      tiers: [[{ itemId: 'coins', minQuantity: 1, maxQuantity: 5, chance: 0.5 }], [], [], []],
    },
  },
  {
    id: 'wolf',
    name: 'Wolf',
    category: 'mob',
    level: 5,
    health: 30,
    attackable: true,
    aggressive: true,
    wanderRadius: 0,
    respawnTicks: 10,
    combat: fighter({ attack: 5, strength: 5, defense: 5, aggroRange: 4, leashRange: 8 }),
  },
  {
    id: 'brute',
    name: 'Brute',
    category: 'mob',
    level: 90,
    health: 500,
    attackable: true,
    aggressive: false,
    wanderRadius: 0,
    respawnTicks: 10,
    combat: fighter({ attack: 90, strength: 90, defense: 90, strengthBonus: 200 }),
  },
];

const prayer = (p: Omit<PrayerInfo, 'name'>): [string, PrayerInfo] => [p.id, { name: p.id, ...p }];

export const COMBAT_PRAYERS = new Map<string, PrayerInfo>([
  prayer({
    id: 'steady',
    level: 1,
    drainEffect: 3,
    bonuses: { defenseMultiplier: 1.05 },
    conflicts: ['stone'],
  }),
  prayer({ id: 'keen', level: 1, drainEffect: 3, bonuses: { attackMultiplier: 1.5 }, conflicts: [] }),
  prayer({ id: 'mighty', level: 1, drainEffect: 3, bonuses: { strengthMultiplier: 2 }, conflicts: [] }),
  prayer({ id: 'stone', level: 10, drainEffect: 6, bonuses: { defenseMultiplier: 1.1 }, conflicts: [] }),
]);

export function combatContent(npcSpawns: NpcSpawn[] = []): SimContent {
  const base = testContent({ npcSpawns });
  const bones = base.items.get('bones') as ItemInfo;
  const weapon = (
    id: string,
    attackType: 'ranged' | 'magic',
    attackRange: number,
    bonuses: Record<string, number>,
  ): ItemInfo => ({
    ...bones,
    id,
    name: id,
    equipSlot: 'weapon',
    bonuses,
    weapon: { attackType, attackSpeed: attackType === 'ranged' ? 4 : 5, attackRange },
  });
  const stack = (id: string, extra: Partial<ItemInfo> = {}): ItemInfo => ({
    ...bones,
    id,
    name: id,
    stackable: true,
    ...extra,
  });
  const ranged = [
    weapon('shortbow', 'ranged', 7, { attackRanged: 8 }),
    weapon('oak_staff', 'magic', 8, { attackMagic: 6 }),
    stack('bronze_arrow', { equipSlot: 'arrows', bonuses: { rangedStrength: 7 } }),
    stack('air_rune'),
    stack('mind_rune'),
  ];
  const amulet: ItemInfo = {
    ...bones,
    id: 'holy_amulet',
    name: 'Holy amulet',
    equipSlot: 'amulet',
    bonuses: { prayer: 15 },
  };
  return {
    ...base,
    items: new Map([
      ...base.items,
      ['bones', { ...bones, prayerXp: 5 }],
      ['holy_amulet', amulet],
      ...ranged.map((i) => [i.id, i] as const),
    ]),
    spells: new Map([
      [
        'wind_strike',
        {
          id: 'wind_strike',
          name: 'Wind Strike',
          level: 1,
          baseMaxHit: 2,
          attackSpeed: 5,
          runes: [
            { itemId: 'air_rune', quantity: 1 },
            { itemId: 'mind_rune', quantity: 1 },
          ],
        },
      ],
      [
        'fire_strike',
        {
          id: 'fire_strike',
          name: 'Fire Strike',
          level: 13,
          baseMaxHit: 8,
          attackSpeed: 5,
          runes: [{ itemId: 'air_rune', quantity: 2 }],
        },
      ],
    ]),
    prayers: COMBAT_PRAYERS,
    stationSpawns: [...base.stationSpawns, { type: 'altar', x: 96, z: 100 }],
    npcs: new Map([...base.npcs, ...COMBAT_NPCS.map((n) => [n.id, n] as const)]),
    areas: [
      { id: 'town', minX: 80, maxX: 120, minZ: 80, maxZ: 120, safeZone: true, pvpEnabled: false },
      { id: 'field', minX: 150, maxX: 199, minZ: 0, maxZ: 199, safeZone: false, pvpEnabled: true },
    ],
  };
}
