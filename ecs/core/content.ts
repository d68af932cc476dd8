import type { EquipSlot, ItemStack } from './character-state.ts';
import type { Skill } from './skills.ts';
import type { TileMap } from './tile-map.ts';

/**
 * What the simulation needs to know about game content, normalised. `world/` builds this from the
 * validated manifest registry (world/sim-content.ts); scenario tests may build a small one by hand.
 */

export interface ItemInfo {
  readonly id: string;
  readonly name: string;
  readonly stackable: boolean;
  /** Unit value from the manifest (trade confirmation values, shop prices). */
  readonly value: number;
  readonly tradeable: boolean;
  /** The equipment slot it occupies, or null when it cannot be equipped. */
  readonly equipSlot: EquipSlot | null;
  /** Occupies the weapon slot and forbids a shield (manifest equipSlot `2h`). */
  readonly twoHanded: boolean;
  /** Hit points restored when eaten; 0 when it is not food. */
  readonly healAmount: number;
  /** Minimum skill levels to equip or use. */
  readonly requirements: Readonly<Partial<Record<Skill, number>>>;
  /** Combat bonuses (attack, strength, defense, ranged, magic, prayer ...), summed over worn items. */
  readonly bonuses: Readonly<Record<string, number>>;
  /** Weapons: attack style family, ticks between attacks and reach in tiles (manifest attackType, attackSpeed, attackRange). */
  readonly weapon?: WeaponInfo | undefined;
  /** Prayer xp for burying it (bones; manifest `prayerXp`). */
  readonly prayerXp?: number | undefined;
}

export interface WeaponInfo {
  readonly attackType: 'melee' | 'ranged' | 'magic';
  readonly attackSpeed: number;
  readonly attackRange: number;
}

/** One drop of an NPC's table (npcs.json `drops`). */
export interface DropInfo {
  readonly itemId: string;
  readonly minQuantity: number;
  readonly maxQuantity: number;
  readonly chance: number;
}

export interface DropTable {
  /** Always dropped (bones), when enabled. */
  readonly defaultDrop?: { readonly itemId: string; readonly quantity: number } | undefined;
  readonly always: readonly DropInfo[];
  /** The weighted tiers, rolled in this order: common, uncommon, rare, veryRare. */
  readonly tiers: readonly (readonly DropInfo[])[];
}

/** How an NPC fights (npcs.json `stats` and `combat`). */
export interface NpcCombatInfo {
  readonly attack: number;
  readonly strength: number;
  readonly defense: number;
  /** Flat bonuses of its own (stats.attackBonus, strengthBonus, defenseBonus). */
  readonly attackBonus: number;
  readonly strengthBonus: number;
  readonly defenseBonus: number;
  readonly retaliates: boolean;
  readonly aggroRange: number;
  readonly combatRange: number;
  readonly leashRange: number;
  readonly attackSpeedTicks: number;
  /** How it attacks (default melee): ranged uses `ranged` and its arrow, magic `magic` and its spell. */
  readonly attackType?: 'melee' | 'ranged' | 'magic' | undefined;
  readonly ranged?: number | undefined;
  readonly magic?: number | undefined;
  readonly spellId?: string | undefined;
  readonly arrowId?: string | undefined;
}

/** A named area of the map (world-areas.json) and whether players may fight each other there. */
export interface AreaInfo {
  readonly id: string;
  readonly minX: number;
  readonly maxX: number;
  readonly minZ: number;
  readonly maxZ: number;
  readonly safeZone: boolean;
  readonly pvpEnabled: boolean;
}

export interface NpcInfo {
  readonly id: string;
  readonly name: string;
  /** `mob` fights; `neutral` are townsfolk, shopkeepers, bankers, quest givers. */
  readonly category: string;
  readonly level: number;
  readonly health: number;
  readonly attackable: boolean;
  readonly aggressive: boolean;
  /** Tiles around its spawn point it may wander; 0 stands still. */
  readonly wanderRadius: number;
  readonly respawnTicks: number;
  /** Fighting stats and behaviour; absent for NPCs that never fight. */
  readonly combat?: NpcCombatInfo | undefined;
  readonly drops?: DropTable | undefined;
}

/** Where an NPC (or several of one kind) appears. `service` tells what talking to it opens. */
export interface NpcSpawn {
  readonly npcId: string;
  readonly x: number;
  readonly z: number;
  readonly count: number;
  /** Radius around (x, z) within which the `count` NPCs are placed and wander. */
  readonly radius: number;
  readonly service?: 'bank' | 'store' | 'quest' | undefined;
  readonly storeId?: string | undefined;
}

export interface ResourceSpawn {
  readonly resourceId: string;
  /** `tree`, `ore`, `fishing`, ... */
  readonly kind: string;
  readonly x: number;
  readonly z: number;
}

export interface StationSpawn {
  /** Station type from stations.json: `bank`, `anvil`, `furnace`, `range`, `altar` ... */
  readonly type: string;
  readonly x: number;
  readonly z: number;
}

/** A named world area of the content (world-areas.json), as a tile rectangle (bounds inclusive). */
export interface WorldArea {
  readonly id: string;
  readonly name: string;
  readonly minX: number;
  readonly maxX: number;
  readonly minZ: number;
  readonly maxZ: number;
}

/**
 * The parts of SimContent that features build from their own manifests (their content face). Each feature
 * adds its part by augmenting this interface in its content.ts (`interface ContentParts { stores: ... }`);
 * a world without that feature's manifests has none of it, so a feature reads its part as optional.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by the features' declaration merging
export interface ContentParts {}

export interface SimContent extends Partial<ContentParts> {
  readonly items: ReadonlyMap<string, ItemInfo>;
  readonly npcs: ReadonlyMap<string, NpcInfo>;
  /** Where new characters (and respawning ones) enter the world. */
  readonly spawn: { readonly x: number; readonly z: number };
  readonly map: TileMap;
  readonly npcSpawns: readonly NpcSpawn[];
  readonly resourceSpawns: readonly ResourceSpawn[];
  readonly stationSpawns: readonly StationSpawn[];
  /** What a new character starts with. */
  readonly starterInventory: readonly ItemStack[];
  /** NPC dialogue trees by NPC id (npcs.json `dialogue`). */
  readonly dialogues?: ReadonlyMap<string, DialogueTree>;
  /** The world areas in content order (voice rooms follow them); may be empty. */
  readonly worldAreas: readonly WorldArea[];
  /** Areas of the map (PvP rules); absent = no areas, PvP nowhere. */
  readonly areas?: readonly AreaInfo[] | undefined;
}

export interface DialogueResponse {
  readonly text: string;
  readonly nextNodeId?: string | undefined;
  /** `openBank`, `openStore`, `startQuest:<questId>`, ... (docs/content.md). */
  readonly effect?: string | undefined;
}

export interface DialogueNode {
  readonly id: string;
  readonly text: string;
  readonly responses: readonly DialogueResponse[];
  /** Runs when the node is shown (`completeQuest:<questId>`). */
  readonly effect?: string | undefined;
}

/** The node a conversation starts at instead of the entry, by the player's status in a quest. */
export interface DialogueQuestOverride {
  readonly questId: string;
  readonly inProgress?: string | undefined;
  /** In progress, and this talk would finish its current stage (a report or a delivery to this NPC). */
  readonly readyToComplete?: string | undefined;
  readonly completed?: string | undefined;
}

export interface DialogueTree {
  readonly entryNodeId: string;
  readonly nodes: ReadonlyMap<string, DialogueNode>;
  /** In manifest order; the first that applies wins. */
  readonly questOverrides: readonly DialogueQuestOverride[];
}
