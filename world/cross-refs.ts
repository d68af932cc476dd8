import { INVENTORY_SLOTS } from '../ecs/core/character-state.ts';
import type { ContentContext } from '../ecs/core/faces/content.ts';
import type { ManifestData } from './schemas/index.ts';
import type { ItemDef } from './schemas/items.ts';
import type { CharacterTemplate } from './schemas/project.ts';

/**
 * Cross-reference checks between manifests. `problems` stop start-up. `warnings` are the few kinds of
 * dangling reference the reference content really has (docs/content.md lists them); the server tolerates
 * them by ignoring the dangling part (a tool definition for an item that does not exist, a yield of an
 * unknown item, a burnt variant that does not exist, a resource placement of an unknown node).
 */

/** The item id of coins, as in the reference content. */
export const COIN_ITEM_ID = 'coins';

export interface CrossRefInput {
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

/** The core's checks, and those of features not yet moved to a content face; reported through ctx. */
export function checkCrossRefs(c: CrossRefInput, ctx: ContentContext): void {
  const problems = {
    push: (...m: string[]) => {
      for (const x of m) ctx.problem(x);
    },
  };
  const warnings = {
    push: (...m: string[]) => {
      for (const x of m) ctx.warn(x);
    },
  };
  const items = c.items;
  const npcIds = new Set(c.npcs.map((n) => n.id));

  const item = (file: string, where: string, id: string, soft = false) => ctx.item(file, where, id, soft);

  // `coins` is the coin pouch the simulation pays and charges with: it must be the stackable currency.
  const coins = items.get(COIN_ITEM_ID);
  if (coins && coins.type !== 'currency') {
    problems.push(
      `items: item "${COIN_ITEM_ID}" (the coin pouch): type must be "currency", not "${coins.type}"`,
    );
  }

  for (const n of c.npcs) {
    if (n.drops) {
      const { defaultDrop, ...tiers } = n.drops;
      if (defaultDrop) item('npcs.json', `npc "${n.id}" drops.defaultDrop`, defaultDrop.itemId);
      for (const [tier, list] of Object.entries(tiers)) {
        each(list, (d, i) => item('npcs.json', `npc "${n.id}" drops.${tier}[${i}]`, d.itemId));
      }
    }
    if (n.combat.arrowId) item('npcs.json', `npc "${n.id}" combat.arrowId`, n.combat.arrowId);
    if (ctx.defines('quest')) {
      for (const q of n.services?.questIds ?? []) {
        if (!ctx.has('quest', q))
          problems.push(`npcs.json: npc "${n.id}" services.questIds ("${q}"): unknown quest`);
      }
    }
  }

  for (const [group, areas] of Object.entries(c.areas)) {
    for (const [key, a] of Object.entries(areas)) {
      const at = `world-areas.json: area "${a.id}" (${group}.${key})`;
      each(a.npcs, (n, i) => {
        // An entry with its own name defines the NPC inline (the reference's duel-arena staff).
        if (!npcIds.has(n.id) && n.name === undefined)
          problems.push(`${at} npcs[${i}] (id "${n.id}"): unknown npc`);
        if (n.storeId !== undefined && !ctx.has('store', n.storeId)) {
          problems.push(`${at} npcs[${i}] (storeId "${n.storeId}"): unknown store`);
        }
        if (n.type.endsWith('_store') && n.storeId === undefined) {
          // A shopkeeper without a store id would open nothing; the reference always names one.
          problems.push(`${at} npcs[${i}] (type "${n.type}"): a store NPC needs a storeId`);
        }
      });
      each(a.mobSpawns, (m, i) => {
        if (!npcIds.has(m.mobId)) problems.push(`${at} mobSpawns[${i}] (mobId "${m.mobId}"): unknown npc`);
      });
      each(a.resources, (r, i) => {
        if (!ctx.has('resource', r.resourceId)) {
          warnings.push(`${at} resources[${i}] (resourceId "${r.resourceId}"): unknown resource, not placed`);
        }
      });
      (a.fishing?.spotTypes ?? []).forEach((s, i) => {
        if (!ctx.has('resource', s))
          problems.push(`${at} fishing.spotTypes[${i}] ("${s}"): unknown fishing spot`);
      });
      if (ctx.defines('station')) {
        each(a.stations, (s, i) => {
          if (!ctx.has('station', s.type))
            problems.push(`${at} stations[${i}] (type "${s.type}"): unknown station type`);
        });
      }
    }
  }

  each(c.biomes, (b) => {
    each(b.mobs, (m, i) => {
      if (!npcIds.has(m)) problems.push(`biomes.json: biome "${b.id}" mobs[${i}] ("${m}"): unknown npc`);
    });
  });

  if (ctx.defines('spell')) {
    for (const n of c.npcs) {
      if (n.combat.spellId && !ctx.has('spell', n.combat.spellId)) {
        problems.push(`npcs.json: npc "${n.id}" combat.spellId ("${n.combat.spellId}"): unknown spell`);
      }
    }
  }

  each(c.templates, (t) => {
    const file = 'character-templates.json';
    const slots = t.inventory.reduce((n, s) => {
      const def = items.get(s.itemId);
      return n + (def?.stackable === true || def?.type === 'currency' ? 1 : s.quantity);
    }, 0);
    if (slots > INVENTORY_SLOTS) {
      problems.push(
        `${file}: template "${t.id}" inventory: needs ${slots} slots, more than ${INVENTORY_SLOTS}`,
      );
    }
    each(t.inventory, (s, i) => item(file, `template "${t.id}" inventory[${i}]`, s.itemId));
    for (const [slot, id] of Object.entries(t.equipment)) {
      if (id === undefined) continue;
      item(file, `template "${t.id}" equipment.${slot}`, id);
      const def = items.get(id);
      const defSlot = def?.equipSlot === '2h' ? 'weapon' : def?.equipSlot;
      if (def && defSlot !== slot) {
        problems.push(
          `${file}: template "${t.id}" equipment.${slot} (itemId "${id}"): item does not fit that slot`,
        );
      }
    }
  });
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
