import { INVENTORY_SLOTS } from '../ecs/core/character-state.ts';
import type { ContentContext } from '../ecs/core/faces/content.ts';
import type { ManifestData } from './schemas/index.ts';
import type { ItemDef } from './schemas/items.ts';
import type { CharacterTemplate } from './schemas/project.ts';

/**
 * The core manifests' cross-reference checks, one small function each; each feature checks its own
 * manifests in its content face. A problem stops start-up; a warning is one of the few kinds of dangling
 * reference the reference content really has (docs/content.md lists them), tolerated by ignoring the
 * dangling part (a resource placement of an unknown node). A reference to a feature's ids (a store, a
 * quest, a station type, a spell) asks that id space, and is not checked when nothing defines it.
 */

/** The item id of coins, as in the reference content. */
export const COIN_ITEM_ID = 'coins';

export interface CoreManifests {
  items: ReadonlyMap<string, ItemDef>;
  npcs: ManifestData<'npcs.json'>;
  areas: ManifestData<'world-areas.json'>;
  biomes: ManifestData<'biomes.json'>;
  templates?: readonly CharacterTemplate[] | undefined;
}

/** forEach over an optional list (callbacks here only record problems). */
function each<T>(list: readonly T[] | undefined, fn: (x: T, i: number) => void): void {
  if (list) for (let i = 0; i < list.length; i++) fn(list[i] as T, i);
}

type CoreCheck = (c: CoreManifests, ctx: ContentContext) => void;

/** `coins` is the coin pouch the simulation pays and charges with: it must be the stackable currency. */
const coins: CoreCheck = (c, ctx) => {
  const def = c.items.get(COIN_ITEM_ID);
  if (def && def.type !== 'currency')
    ctx.problem(`items: item "${COIN_ITEM_ID}" (the coin pouch): type must be "currency", not "${def.type}"`);
};

/** npcs.json: drops and arrows are items; services name quests; a caster's spell exists. */
const npcs: CoreCheck = (c, ctx) => {
  for (const n of c.npcs) {
    if (n.drops) {
      const { defaultDrop, ...tiers } = n.drops;
      if (defaultDrop) ctx.item('npcs.json', `npc "${n.id}" drops.defaultDrop`, defaultDrop.itemId);
      for (const [tier, list] of Object.entries(tiers)) {
        each(list, (d, i) => ctx.item('npcs.json', `npc "${n.id}" drops.${tier}[${i}]`, d.itemId));
      }
    }
    if (n.combat.arrowId) ctx.item('npcs.json', `npc "${n.id}" combat.arrowId`, n.combat.arrowId);
    if (ctx.defines('quest')) {
      for (const q of n.services?.questIds ?? []) {
        if (!ctx.has('quest', q))
          ctx.problem(`npcs.json: npc "${n.id}" services.questIds ("${q}"): unknown quest`);
      }
    }
    if (ctx.defines('spell') && n.combat.spellId && !ctx.has('spell', n.combat.spellId))
      ctx.problem(`npcs.json: npc "${n.id}" combat.spellId ("${n.combat.spellId}"): unknown spell`);
  }
};

/** world-areas.json: what each area places exists (NPCs, stores, mobs, nodes, fishing spots, stations). */
const areas: CoreCheck = (c, ctx) => {
  for (const [group, byKey] of Object.entries(c.areas)) {
    for (const [key, a] of Object.entries(byKey)) {
      const at = `world-areas.json: area "${a.id}" (${group}.${key})`;
      each(a.npcs, (n, i) => {
        // An entry with its own name defines the NPC inline (the reference's duel-arena staff).
        if (!ctx.has('npc', n.id) && n.name === undefined)
          ctx.problem(`${at} npcs[${i}] (id "${n.id}"): unknown npc`);
        if (n.storeId !== undefined && !ctx.has('store', n.storeId))
          ctx.problem(`${at} npcs[${i}] (storeId "${n.storeId}"): unknown store`);
        // A shopkeeper without a store id would open nothing; the reference always names one.
        if (n.type.endsWith('_store') && n.storeId === undefined)
          ctx.problem(`${at} npcs[${i}] (type "${n.type}"): a store NPC needs a storeId`);
      });
      each(a.mobSpawns, (m, i) => {
        if (!ctx.has('npc', m.mobId)) ctx.problem(`${at} mobSpawns[${i}] (mobId "${m.mobId}"): unknown npc`);
      });
      each(a.resources, (r, i) => {
        if (!ctx.has('resource', r.resourceId))
          ctx.warn(`${at} resources[${i}] (resourceId "${r.resourceId}"): unknown resource, not placed`);
      });
      each(a.fishing?.spotTypes, (s, i) => {
        if (!ctx.has('resource', s))
          ctx.problem(`${at} fishing.spotTypes[${i}] ("${s}"): unknown fishing spot`);
      });
      if (ctx.defines('station')) {
        each(a.stations, (s, i) => {
          if (!ctx.has('station', s.type))
            ctx.problem(`${at} stations[${i}] (type "${s.type}"): unknown station type`);
        });
      }
    }
  }
};

/** biomes.json: the mobs a biome lists are NPCs. */
const biomes: CoreCheck = (c, ctx) => {
  each(c.biomes, (b) => {
    each(b.mobs, (m, i) => {
      if (!ctx.has('npc', m)) ctx.problem(`biomes.json: biome "${b.id}" mobs[${i}] ("${m}"): unknown npc`);
    });
  });
};

/** character-templates.json: the starting items exist, fit the inventory, and worn items fit their slot. */
const templates: CoreCheck = (c, ctx) => {
  const file = 'character-templates.json';
  each(c.templates, (t) => {
    const slots = t.inventory.reduce((n, s) => {
      const def = c.items.get(s.itemId);
      return n + (def?.stackable === true || def?.type === 'currency' ? 1 : s.quantity);
    }, 0);
    if (slots > INVENTORY_SLOTS)
      ctx.problem(
        `${file}: template "${t.id}" inventory: needs ${slots} slots, more than ${INVENTORY_SLOTS}`,
      );
    each(t.inventory, (s, i) => ctx.item(file, `template "${t.id}" inventory[${i}]`, s.itemId));
    for (const [slot, id] of Object.entries(t.equipment)) {
      if (id === undefined) continue;
      ctx.item(file, `template "${t.id}" equipment.${slot}`, id);
      const def = c.items.get(id);
      const defSlot = def?.equipSlot === '2h' ? 'weapon' : def?.equipSlot;
      if (def && defSlot !== slot)
        ctx.problem(
          `${file}: template "${t.id}" equipment.${slot} (itemId "${id}"): item does not fit that slot`,
        );
    }
  });
};

export const CORE_CHECKS: readonly CoreCheck[] = [coins, npcs, areas, biomes, templates];

/** The core manifests' checks, reported through ctx (the features' faces check their own). */
export function checkCoreRefs(c: CoreManifests, ctx: ContentContext): void {
  for (const check of CORE_CHECKS) check(c, ctx);
}

/** With world.json, every placement must lie inside its bounds (the tile map would silently drop it). */
export function checkPlacements(
  world: ManifestData<'world.json'> | undefined,
  areas: ManifestData<'world-areas.json'>,
  buildings: ManifestData<'buildings.json'> | undefined,
): string[] {
  if (!world) return [];
  const b = world.bounds;
  const inside = (p: { x: number; z: number }) =>
    Math.floor(p.x) >= b.minX &&
    Math.floor(p.x) <= b.maxX &&
    Math.floor(p.z) >= b.minZ &&
    Math.floor(p.z) <= b.maxZ;
  const out: string[] = [];
  const check = (where: string, p: { x: number; z: number }) => {
    if (!inside(p)) out.push(`world-areas.json: ${where} at (${p.x}, ${p.z}): outside the world.json bounds`);
  };
  for (const group of Object.values(areas)) {
    for (const a of Object.values(group)) {
      const at = `area "${a.id}"`;
      if (a.spawnPoint) check(`${at} spawnPoint`, a.spawnPoint);
      each(a.npcs, (n, i) => check(`${at} npcs[${i}]`, n.position));
      each(a.mobSpawns, (m, i) => check(`${at} mobSpawns[${i}]`, m.position));
      each(a.resources, (r, i) => check(`${at} resources[${i}]`, r.position));
      each(a.stations, (s, i) => check(`${at} stations[${i}]`, s.position));
      each(a.fishing?.positions, (p, i) => check(`${at} fishing.positions[${i}]`, p));
    }
  }
  each(buildings, (bd) => {
    const far = { x: bd.position.x + bd.footprint.width - 1, z: bd.position.z + bd.footprint.depth - 1 };
    if (!inside(bd.position) || !inside(far))
      out.push(`buildings.json: building "${bd.id}": outside the world.json bounds`);
  });
  return out;
}
