import type { EquipSlot } from '../ecs/core/character-state.ts';
import type {
  AreaInfo,
  DialogueTree,
  DropInfo,
  ItemInfo,
  NpcInfo,
  NpcSpawn,
  ResourceSpawn,
  SimContent,
  StationSpawn,
} from '../ecs/core/content.ts';
import { slotStacks } from '../ecs/core/new-character.ts';
import { normalizeSkill, type Skill } from '../ecs/core/skills.ts';
import type { ContentRegistry } from './registry.ts';
import type { AreaDef } from './schemas/areas.ts';
import type { ItemDef } from './schemas/items.ts';
import type { NpcDef } from './schemas/npcs.ts';

/** The simulation's normalised view of the registry (ecs/content.ts). Pure: same registry, same result. */
export function toSimContent(registry: ContentRegistry): SimContent {
  const areas = [...registry.areas.values()];
  const npcs = new Map<string, NpcInfo>();
  for (const def of registry.npcs.values()) npcs.set(def.id, npcInfo(def));
  // Area NPCs defined inline (with a name, not in npcs.json) are plain townsfolk.
  for (const a of areas) {
    for (const n of a.npcs) if (!npcs.has(n.id) && n.name) npcs.set(n.id, inlineNpc(n.id, n.name));
  }

  const npcSpawns = areas.flatMap((a) => areaNpcSpawns(a));
  // Placements of unknown nodes were reported as warnings by the loader; they are not placed.
  const resourceSpawns: ResourceSpawn[] = registry.placements.resources.flatMap((r) =>
    registry.ids.get('resource')?.has(r.id) ? [{ resourceId: r.id, kind: r.kind, x: r.x, z: r.z }] : [],
  );
  const stationSpawns: StationSpawn[] = registry.placements.stations.map((s) => ({
    type: s.id,
    x: s.x,
    z: s.z,
  }));
  const { map, spawn } = registry.layout;
  const items = new Map([...registry.items.values()].map((i) => [i.id, itemInfo(i)]));
  const starterInventory = slotStacks(registry.templates[0]?.inventory ?? [], items);

  return Object.freeze({
    ...registry.parts,
    items,
    npcs,
    spawn,
    map,
    npcSpawns,
    resourceSpawns,
    stationSpawns,
    starterInventory,
    dialogues: new Map(
      [...registry.npcs.values()].flatMap((n) =>
        n.dialogue ? [[n.id, dialogueTree(n.dialogue)] as const] : [],
      ),
    ),
    worldAreas: areas.map((a) =>
      Object.freeze({
        id: a.id,
        name: a.name,
        minX: a.bounds.minX,
        maxX: a.bounds.maxX,
        minZ: a.bounds.minZ,
        maxZ: a.bounds.maxZ,
      }),
    ),
    areas: areas.map(areaInfo),
  });
}

function areaInfo(a: AreaDef): AreaInfo {
  const b = a.bounds;
  return Object.freeze({
    id: a.id,
    minX: b.minX,
    maxX: b.maxX,
    minZ: b.minZ,
    maxZ: b.maxZ,
    safeZone: a.safeZone,
    pvpEnabled: a.pvpEnabled,
  });
}

function dialogueTree(def: NonNullable<NpcDef['dialogue']>): DialogueTree {
  const nodes = new Map(
    def.nodes.map((n) => [
      n.id,
      Object.freeze({
        id: n.id,
        text: n.text,
        responses: (n.responses ?? []).map((r) =>
          Object.freeze({ text: r.text, nextNodeId: r.nextNodeId, effect: r.effect }),
        ),
        effect: n.effect,
      }),
    ]),
  );
  const questOverrides = Object.entries(def.questOverrides ?? {}).map(([questId, o]) =>
    Object.freeze({
      questId,
      inProgress: o.in_progress,
      readyToComplete: o.ready_to_complete,
      completed: o.completed,
    }),
  );
  return Object.freeze({ entryNodeId: def.entryNodeId, nodes, questOverrides });
}

/** Template stacks as inventory slots: a non-stackable item of quantity n fills n slots of 1. */
export function itemInfo(def: ItemDef): ItemInfo {
  const twoHanded = def.equipSlot === '2h';
  const equipSlot: EquipSlot | null = twoHanded
    ? 'weapon'
    : ((def.equipSlot as EquipSlot | undefined) ?? null);
  return Object.freeze({
    id: def.id,
    name: def.name,
    stackable: def.stackable === true || def.type === 'currency',
    value: def.value,
    tradeable: def.tradeable,
    equipSlot,
    twoHanded,
    healAmount: def.healAmount ?? 0,
    requirements: Object.freeze(flattenRequirements(def.requirements)),
    bonuses: Object.freeze({ ...(def.bonuses ?? {}) }),
    weapon: weaponInfo(def),
    prayerXp: def.prayerXp,
  });
}

/** A weapon's style family, speed and reach; unarmed-like defaults (melee, 4 ticks, 1 tile). */
function weaponInfo(def: ItemDef): ItemInfo['weapon'] {
  if (def.equipSlot !== 'weapon' && def.equipSlot !== '2h') return undefined;
  const kind = (def.attackType ?? def.weaponType ?? '').toLowerCase();
  const bow = ['bow', 'crossbow'].includes((def.weaponType ?? '').toLowerCase());
  const attackType = kind === 'ranged' || bow ? 'ranged' : kind === 'magic' ? 'magic' : 'melee';
  return Object.freeze({
    attackType,
    attackSpeed: def.attackSpeed ?? 4,
    attackRange: attackType === 'melee' ? 1 : (def.attackRange ?? (attackType === 'ranged' ? 7 : 10)),
  });
}

/** `{level, skills: {defence: 10}}` and `{attack: 5}` both become `{defense: 10}` / `{attack: 5}`. */
function flattenRequirements(req: ItemDef['requirements']): Partial<Record<Skill, number>> {
  const out: Partial<Record<Skill, number>> = {};
  if (!req) return out;
  const put = (name: string, level: number) => {
    const skill = normalizeSkill(name);
    if (skill) out[skill] = Math.max(out[skill] ?? 1, level);
  };
  for (const [key, value] of Object.entries(req)) {
    if (key === 'level' || value === undefined) continue;
    if (key === 'skills' && typeof value === 'object') {
      for (const [name, level] of Object.entries(value)) put(name, level);
    } else if (typeof value === 'number') {
      put(key, value);
    }
  }
  return out;
}

function npcInfo(def: NpcDef): NpcInfo {
  return Object.freeze({
    id: def.id,
    name: def.name,
    category: def.category,
    level: def.stats.level,
    health: def.stats.health,
    attackable: def.combat.attackable,
    aggressive: def.combat.aggressive,
    wanderRadius: def.movement.type === 'stationary' ? 0 : def.movement.wanderRadius,
    respawnTicks: def.combat.respawnTicks,
    combat: def.combat.attackable
      ? Object.freeze({
          attack: stat(def, 'attack', def.stats.level),
          strength: stat(def, 'strength', def.stats.level),
          defense: stat(def, 'defense', def.stats.level),
          attackBonus: stat(def, 'attackBonus', 0),
          strengthBonus: stat(def, 'strengthBonus', 0),
          defenseBonus: stat(def, 'defenseBonus', 0),
          retaliates: def.combat.retaliates ?? true,
          aggroRange: def.combat.aggroRange ?? (def.combat.aggressive ? 4 : 0),
          combatRange: def.combat.combatRange ?? 1,
          leashRange: def.combat.leashRange ?? 10,
          attackSpeedTicks: def.combat.attackSpeedTicks ?? 4,
          attackType: def.combat.attackType,
          ranged: stat(def, 'ranged', def.stats.level),
          magic: stat(def, 'magic', def.stats.level),
          spellId: def.combat.spellId,
          arrowId: def.combat.arrowId,
        })
      : undefined,
    drops: def.drops ? dropTable(def.drops) : undefined,
  });
}

function stat(def: NpcDef, name: string, fallback: number): number {
  const v = (def.stats as Record<string, number | undefined>)[name];
  return typeof v === 'number' ? v : fallback;
}

function dropTable(d: NonNullable<NpcDef['drops']>): NonNullable<NpcInfo['drops']> {
  const list = (l: readonly DropInfo[]) => Object.freeze(l.map((x) => Object.freeze({ ...x })));
  return Object.freeze({
    defaultDrop: d.defaultDrop?.enabled
      ? Object.freeze({ itemId: d.defaultDrop.itemId, quantity: d.defaultDrop.quantity })
      : undefined,
    always: list(d.always),
    tiers: Object.freeze([list(d.common), list(d.uncommon), list(d.rare), list(d.veryRare)]),
  });
}

function inlineNpc(id: string, name: string): NpcInfo {
  return Object.freeze({
    id,
    name,
    category: 'neutral',
    level: 1,
    health: 10,
    attackable: false,
    aggressive: false,
    wanderRadius: 0,
    respawnTicks: 0,
  });
}

/** Area NPC `type` → what talking opens: `bank`, any `…_store` (with its storeId), `quest_giver`. */
function areaNpcSpawns(a: AreaDef): NpcSpawn[] {
  const out: NpcSpawn[] = a.npcs.map((n) => {
    const spawn = { npcId: n.id, x: tile(n.position.x), z: tile(n.position.z), count: 1, radius: 0 };
    if (n.type === 'bank') return { ...spawn, service: 'bank' as const };
    if (n.type.endsWith('_store') || n.storeId !== undefined) {
      return { ...spawn, service: 'store' as const, storeId: n.storeId ?? n.type };
    }
    if (n.type === 'quest_giver') return { ...spawn, service: 'quest' as const };
    return spawn;
  });
  for (const m of a.mobSpawns) {
    out.push({
      npcId: m.mobId,
      x: tile(m.position.x),
      z: tile(m.position.z),
      count: m.maxCount,
      radius: m.spawnRadius,
    });
  }
  return out;
}

const tile = (v: number) => Math.floor(v);
