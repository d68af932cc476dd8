import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'vite';

/**
 * `virtual:content`: the little of a world's manifests the client needs, cut down at build time so the
 * bundle never carries whole manifests: names and examine texts (items, NPCs, stations, resource
 * nodes), what each NPC is and answers, the quests with their stages and requirements, the spells, the
 * prayers, the recipes made without a station, the burnt foods and the world areas with their NPCs.
 * Declared for the client in client/src/content.d.ts.
 */

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {});
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);

export function contentPlugin(manifests: string): Plugin {
  const id = 'virtual:content';
  return {
    name: 'client-content',
    resolveId: (source) => (source === id ? `\0${id}` : null),
    load(resolved) {
      if (resolved !== `\0${id}`) return null;
      const cut = cutContent(manifests);
      return Object.entries(cut)
        .map(([name, value]) => `export const ${name} = ${JSON.stringify(value)};`)
        .join('\n');
    },
  };
}

function read(dir: string, file: string): unknown {
  const full = path.join(dir, file);
  return existsSync(full) ? JSON.parse(readFileSync(full, 'utf8')) : undefined;
}

/** The items of items.json or of the item files under items/. */
function itemDefs(dir: string): Json[] {
  const single = read(dir, 'items.json');
  if (single !== undefined) return arr(single).map(obj);
  const sub = path.join(dir, 'items');
  if (!existsSync(sub)) return [];
  return readdirSync(sub)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .flatMap((f) => arr(read(sub, f)).map(obj));
}

export function cutContent(dir: string) {
  const npcDefs = arr(read(dir, 'npcs.json')).map(obj);
  const areaGroups = obj(read(dir, 'world-areas.json'));
  const areaDefs = Object.values(areaGroups).flatMap((g) => Object.values(obj(g)).map(obj));
  const areaNpcType = new Map<string, string>();
  for (const a of areaDefs)
    for (const n of arr(a['npcs']).map(obj)) areaNpcType.set(String(n['id']), String(n['type']));

  const NPCS: Record<
    string,
    { name: string; examine: string; kind: string; verbs: string[]; level: number; quests: string[] }
  > = {};
  for (const n of npcDefs) {
    const nid = String(n['id']);
    const services = obj(n['services']);
    const types = services['enabled'] === false ? [] : arr(services['types']).map(String);
    const combat = obj(n['combat']);
    const verbs: string[] = [];
    if (combat['attackable'] === true) verbs.push('attack');
    if (n['dialogue']) verbs.push('talk');
    if (types.includes('shop')) verbs.push('shop');
    if (types.includes('bank')) verbs.push('bank');
    const areaType = areaNpcType.get(nid) ?? '';
    // What the NPC is, for its look: a fighter, or (by its services, then its area role) a townsperson.
    const kind =
      n['category'] === 'mob' || (combat['attackable'] === true && types.length === 0)
        ? 'mob'
        : types.includes('bank') || areaType === 'bank'
          ? 'banker'
          : types.includes('quest') || areaType === 'quest_giver'
            ? 'quest'
            : types.includes('shop') || areaType.endsWith('store')
              ? 'shopkeeper'
              : 'townsfolk';
    NPCS[nid] = {
      name: str(n['name']) ?? nid,
      examine: str(n['examine']) ?? str(n['description']) ?? '',
      kind,
      verbs,
      level: num(obj(n['stats'])['level']) ?? num(n['level']) ?? 1,
      quests: arr(services['questIds']).map(String),
    };
  }

  const ITEMS: Record<
    string,
    { name: string; examine: string; heal?: number; equip?: string; bury?: boolean; value: number }
  > = {};
  for (const i of itemDefs(dir)) {
    const iid = String(i['id']);
    ITEMS[iid] = {
      name: str(i['name']) ?? iid,
      examine: str(i['examine']) ?? str(i['description']) ?? '',
      value: num(i['value']) ?? 0,
      ...(num(i['healAmount']) ? { heal: num(i['healAmount']) } : {}),
      ...(str(i['equipSlot']) ? { equip: str(i['equipSlot']) } : {}),
      ...((num(i['prayerXp']) ?? 0) > 0 ? { bury: true } : {}),
    };
  }

  const STATIONS: Record<string, { name: string; examine: string }> = {};
  for (const s of arr(obj(read(dir, 'stations.json'))['stations']).map(obj)) {
    STATIONS[String(s['type'])] = {
      name: str(s['name']) ?? String(s['type']),
      examine: str(s['examine']) ?? '',
    };
  }

  const RESOURCES: Record<string, { name: string; skill: string; level: number; tool: string }> = {};
  const gathering = path.join(dir, 'gathering');
  if (existsSync(gathering)) {
    for (const f of readdirSync(gathering).filter((x) => x.endsWith('.json'))) {
      for (const list of Object.values(obj(read(gathering, f)))) {
        for (const r of arr(list).map(obj)) {
          RESOURCES[String(r['id'])] = {
            name: str(r['name']) ?? String(r['id']),
            skill: str(r['harvestSkill']) ?? '',
            level: num(r['levelRequired']) ?? 1,
            tool: str(r['toolRequired']) ?? '',
          };
        }
      }
    }
  }

  const QUESTS: Record<
    string,
    {
      name: string;
      startNpc: string;
      quests: string[];
      skills: Record<string, number>;
      stages: { id: string; description: string; npcId?: string }[];
    }
  > = {};
  for (const [qid, q] of Object.entries(obj(read(dir, 'quests.json'))).map(
    ([k, v]) => [k, obj(v)] as const,
  )) {
    const req = obj(q['requirements']);
    QUESTS[qid] = {
      name: str(q['name']) ?? qid,
      startNpc: str(q['startNpc']) ?? '',
      quests: arr(req['quests']).map(String),
      skills: Object.fromEntries(Object.entries(obj(req['skills'])).map(([k, v]) => [k, Number(v)])),
      stages: arr(q['stages'])
        .map(obj)
        .map((s) => ({
          id: String(s['id']),
          description: str(s['description']) ?? String(s['id']),
          ...(str(s['npcId']) ? { npcId: str(s['npcId']) } : {}),
        })),
    };
  }

  const SPELLS = Object.values(obj(read(dir, 'combat-spells.json')))
    .flatMap((book) => Object.values(obj(book)).flatMap((list) => arr(list).map(obj)))
    .map((s) => ({
      id: String(s['id']),
      name: str(s['name']) ?? String(s['id']),
      level: num(s['level']) ?? 1,
      runes: arr(s['runes'])
        .map(obj)
        .map((r) => ({ itemId: String(r['runeId']), quantity: num(r['quantity']) ?? 1 })),
    }));

  const PRAYERS = arr(obj(read(dir, 'prayers.json'))['prayers'])
    .map(obj)
    .map((p) => ({
      id: String(p['id']),
      name: str(p['name']) ?? String(p['id']),
      level: num(p['level']) ?? 1,
    }));

  // Recipes made from the inventory alone (item on item): what each makes, from which items.
  const recipes = (file: string) => arr(obj(read(dir, `recipes/${file}.json`))['recipes']).map(obj);
  const inputs = (r: Json) => arr(r['inputs']).map((i) => String(obj(i)['item']));
  const HAND_RECIPES: { recipeId: string; kind: string; level: number; uses: string[] }[] = [
    ...recipes('firemaking').map((r) => ({
      recipeId: String(r['log']),
      kind: 'firemaking',
      level: num(r['level']) ?? 1,
      uses: [String(r['log']), 'tinderbox'],
    })),
    ...recipes('fletching').map((r) => ({
      recipeId: String(r['output']),
      kind: 'fletching',
      level: num(r['level']) ?? 1,
      uses: [...inputs(r), ...arr(r['tools']).map(String)],
    })),
    ...recipes('crafting')
      .filter((r) => (str(r['station']) ?? 'none') === 'none')
      .map((r) => ({
        recipeId: String(r['output']),
        kind: 'crafting',
        level: num(r['level']) ?? 1,
        uses: [...inputs(r), ...arr(r['tools']).map(String)],
      })),
    ...recipes('tanning').map((r) => ({
      recipeId: String(r['output']),
      kind: 'tanning',
      level: 1,
      uses: [String(r['input'])],
    })),
  ];
  const BURNT = recipes('cooking').flatMap((r) => (str(r['burnt']) ? [String(r['burnt'])] : []));

  const AREAS = areaDefs.map((a) => {
    const b = obj(a['bounds']);
    return {
      id: String(a['id']),
      minX: Number(b['minX']),
      maxX: Number(b['maxX']),
      minZ: Number(b['minZ']),
      maxZ: Number(b['maxZ']),
      safeZone: a['safeZone'] === true,
      pvpEnabled: a['pvpEnabled'] === true,
      npcs: arr(a['npcs'])
        .map(obj)
        .map((n) => {
          const p = obj(n['position']);
          return { npcId: String(n['id']), x: Number(p['x']), z: Number(p['z']) };
        }),
    };
  });

  return { NPCS, ITEMS, STATIONS, RESOURCES, QUESTS, SPELLS, PRAYERS, HAND_RECIPES, BURNT, AREAS };
}
