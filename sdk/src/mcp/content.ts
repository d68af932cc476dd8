import { z } from 'zod';

/**
 * The world's public content, read from the server's HTTP routes as any client may (`/manifests/*`,
 * `/api/map`): names of items and NPCs, what each NPC answers to, what each resource node yields and
 * needs, the quests with their stages, and the places and areas of the map. Used only to describe the
 * world in words; a manifest that is missing or of another shape leaves its part empty (ids are shown
 * instead of names), it never stops the MCP server.
 */

export interface NpcInfo {
  id: string;
  name: string;
  /** The `player:action` verbs it answers: attack, talk, shop, bank. */
  verbs: string[];
}

export interface ResourceInfo {
  id: string;
  name: string;
  skill: string;
  level: number;
  tool: string | null;
  /** Item ids it yields. */
  yields: string[];
}

export interface QuestStage {
  id: string;
  type: string;
  description: string;
  npcId?: string;
  target?: string;
  count: number;
}

export interface QuestInfo {
  id: string;
  name: string;
  description: string;
  startNpc: string;
  stages: QuestStage[];
  requiredQuests: string[];
  requiredSkills: Record<string, number>;
  rewards: string;
}

export interface Place {
  kind: 'npc' | 'station' | 'resource' | 'monsters' | 'spawn';
  /** Manifest id: an NPC id, a station type, a resource id, a monster id. */
  id: string;
  name: string;
  x: number;
  z: number;
  area: string;
}

export interface Area {
  id: string;
  name: string;
  description: string;
  minX: number;
  maxX: number;
  minZ: number;
  maxZ: number;
  safe: boolean;
}

export class Content {
  readonly items = new Map<string, string>();
  readonly npcs = new Map<string, NpcInfo>();
  readonly resources = new Map<string, ResourceInfo>();
  readonly quests = new Map<string, QuestInfo>();
  readonly stations = new Map<string, string>();
  readonly places: Place[] = [];
  readonly areas: Area[] = [];
  spawn: { x: number; z: number } | undefined;

  itemName(id: string): string {
    return this.items.get(id) ?? id;
  }

  npcName(id: string): string {
    return this.npcs.get(id)?.name ?? id;
  }

  /** The area a tile lies in, or undefined between areas. */
  areaAt(x: number, z: number): Area | undefined {
    return this.areas.find((a) => x >= a.minX && x <= a.maxX && z >= a.minZ && z <= a.maxZ);
  }

  /** Resource kinds that yield an item. */
  sourcesOf(itemId: string): ResourceInfo[] {
    return [...this.resources.values()].filter((r) => r.yields.includes(itemId));
  }

  /** Known places matching an id or a name (case-insensitive), nearest to `from` first. */
  placesNamed(query: string, from?: { x: number; z: number }): Place[] {
    const q = query.trim().toLowerCase();
    const found = this.places.filter((p) => p.id.toLowerCase() === q || p.name.toLowerCase() === q);
    const byName = found.length > 0 ? found : this.places.filter((p) => p.name.toLowerCase().includes(q));
    if (from === undefined) return byName;
    const d = (p: Place) => Math.max(Math.abs(p.x - from.x), Math.abs(p.z - from.z));
    return [...byName].sort((a, b) => d(a) - d(b));
  }
}

const position = z.object({ x: z.number(), z: z.number() }).loose();
const named = z.object({ id: z.string(), name: z.string() }).loose();
const npcManifest = z
  .object({
    id: z.string(),
    name: z.string(),
    combat: z.object({ attackable: z.boolean().optional() }).loose().optional(),
    dialogue: z.unknown().optional(),
    services: z
      .object({ enabled: z.boolean().optional(), types: z.array(z.string()).optional() })
      .loose()
      .optional(),
  })
  .loose();
const resourceManifest = z
  .object({
    id: z.string(),
    name: z.string(),
    harvestSkill: z.string(),
    toolRequired: z.string().nullable().optional(),
    levelRequired: z.number().optional(),
    harvestYield: z.array(z.object({ itemId: z.string() }).loose()).optional(),
  })
  .loose();
const questManifest = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string().optional(),
    startNpc: z.string(),
    requirements: z
      .object({ quests: z.array(z.string()).optional(), skills: z.record(z.string(), z.number()).optional() })
      .loose()
      .optional(),
    stages: z.array(
      z
        .object({
          id: z.string(),
          type: z.string(),
          description: z.string().optional(),
          npcId: z.string().optional(),
          target: z.string().optional(),
          count: z.number().optional(),
        })
        .loose(),
    ),
    rewards: z
      .object({
        questPoints: z.number().optional(),
        items: z.array(z.object({ itemId: z.string(), quantity: z.number() }).loose()).optional(),
        xp: z.record(z.string(), z.number()).optional(),
      })
      .loose()
      .optional(),
  })
  .loose();
const areaManifest = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string().optional(),
    bounds: z.object({ minX: z.number(), maxX: z.number(), minZ: z.number(), maxZ: z.number() }),
    safeZone: z.boolean().optional(),
    spawnPoint: position.optional(),
    npcs: z.array(z.object({ id: z.string(), position }).loose()).optional(),
    resources: z.array(z.object({ resourceId: z.string(), position }).loose()).optional(),
    mobSpawns: z.array(z.object({ mobId: z.string(), position }).loose()).optional(),
    stations: z.array(z.object({ type: z.string(), position }).loose()).optional(),
    fishing: z
      .object({ spotTypes: z.array(z.string()), positions: z.array(position) })
      .loose()
      .optional(),
  })
  .loose();

/** The item files of the layouts a world may use; those the server lacks answer 404 and are skipped. */
const ITEM_FILES = [
  'items.json',
  ...['weapons', 'armor', 'food', 'resources', 'tools', 'misc', 'ammunition', 'runes'].map(
    (f) => `items/${f}.json`,
  ),
];
const GATHERING_FILES = ['gathering/woodcutting.json', 'gathering/mining.json', 'gathering/fishing.json'];

/** Entries of a manifest that may be a list or an object of lists (`{trees: [...]}`) or of entries. */
function entries(doc: unknown): unknown[] {
  if (Array.isArray(doc)) return doc;
  if (doc !== null && typeof doc === 'object') {
    return Object.values(doc).flatMap((v) =>
      Array.isArray(v) ? v : v !== null && typeof v === 'object' ? [v] : [],
    );
  }
  return [];
}

function each<T>(schema: z.ZodType<T>, doc: unknown, use: (v: T) => void): void {
  for (const e of entries(doc)) {
    const r = schema.safeParse(e);
    if (r.success) use(r.data);
  }
}

/**
 * Fetches the public content from `httpBase` (`http://host:port`). With the session's `token` the
 * requests count in that token's REST budget rather than the address's, so many agents on one machine
 * starting together are not refused.
 */
export async function loadContent(httpBase: string, timeoutMs = 10_000, token?: string): Promise<Content> {
  const headers: Record<string, string> = token !== undefined ? { authorization: `Bearer ${token}` } : {};
  const get = async (p: string): Promise<unknown> => {
    try {
      const res = await fetch(`${httpBase}${p}`, { headers, signal: AbortSignal.timeout(timeoutMs) });
      return res.ok ? await res.json() : undefined;
    } catch {
      return undefined;
    }
  };
  const m = (file: string) => get(`/manifests/${file}`);
  const [items, npcs, quests, areas, stations, map, ...gathering] = await Promise.all([
    Promise.all(ITEM_FILES.map(m)),
    m('npcs.json'),
    m('quests.json'),
    m('world-areas.json'),
    m('stations.json'),
    get('/api/map'),
    ...GATHERING_FILES.map(m),
  ]);
  const c = new Content();
  for (const doc of items) each(named, doc, (i) => c.items.set(i.id, i.name));
  each(z.object({ type: z.string(), name: z.string() }).loose(), stations, (s) =>
    c.stations.set(s.type, s.name),
  );
  each(npcManifest, npcs, (n) => {
    const services = n.services?.enabled === false ? [] : (n.services?.types ?? []);
    const verbs = [
      ...(n.combat?.attackable ? ['attack'] : []),
      ...(n.dialogue !== undefined ? ['talk'] : []),
      ...(services.includes('shop') ? ['shop'] : []),
      ...(services.includes('bank') ? ['bank'] : []),
    ];
    c.npcs.set(n.id, { id: n.id, name: n.name, verbs });
  });
  for (const doc of gathering) {
    each(resourceManifest, doc, (r) =>
      c.resources.set(r.id, {
        id: r.id,
        name: r.name,
        skill: r.harvestSkill,
        level: r.levelRequired ?? 1,
        tool: r.toolRequired ?? null,
        yields: (r.harvestYield ?? []).map((y) => y.itemId),
      }),
    );
  }
  each(questManifest, quests, (q) => {
    const rewards = [
      ...(q.rewards?.questPoints ? [`${q.rewards.questPoints} quest point(s)`] : []),
      ...Object.entries(q.rewards?.xp ?? {}).map(([skill, xp]) => `${xp} ${skill} xp`),
      ...(q.rewards?.items ?? []).map((i) => `${i.quantity} ${c.itemName(i.itemId)}`),
    ].join(', ');
    c.quests.set(q.id, {
      id: q.id,
      name: q.name,
      description: q.description ?? '',
      startNpc: q.startNpc,
      stages: q.stages.map((s) => ({
        id: s.id,
        type: s.type,
        description: s.description ?? '',
        ...(s.npcId !== undefined ? { npcId: s.npcId } : {}),
        ...(s.target !== undefined ? { target: s.target } : {}),
        count: s.count ?? 1,
      })),
      requiredQuests: q.requirements?.quests ?? [],
      requiredSkills: q.requirements?.skills ?? {},
      rewards,
    });
  });
  // world-areas.json: groups (starter towns, level 1 areas...) of areas by id.
  const areaList = entries(areas).flatMap((group) => entries(group));
  each(areaManifest, areaList, (a) => {
    c.areas.push({
      id: a.id,
      name: a.name,
      description: a.description ?? '',
      ...a.bounds,
      safe: a.safeZone === true,
    });
    const at = (kind: Place['kind'], id: string, name: string, p: { x: number; z: number }) =>
      c.places.push({ kind, id, name, x: Math.round(p.x), z: Math.round(p.z), area: a.name });
    if (a.spawnPoint) at('spawn', 'spawn', `${a.name} spawn`, a.spawnPoint);
    for (const n of a.npcs ?? []) at('npc', n.id, c.npcName(n.id), n.position);
    for (const s of a.stations ?? []) at('station', s.type, c.stations.get(s.type) ?? s.type, s.position);
    for (const r of a.resources ?? [])
      at('resource', r.resourceId, c.resources.get(r.resourceId)?.name ?? r.resourceId, r.position);
    a.fishing?.positions.forEach((p, i) => {
      const id = a.fishing?.spotTypes[i];
      if (id !== undefined) at('resource', id, c.resources.get(id)?.name ?? id, p);
    });
    for (const s of a.mobSpawns ?? []) at('monsters', s.mobId, c.npcName(s.mobId), s.position);
  });
  const spawn = position.safeParse((map as { spawn?: unknown } | undefined)?.spawn);
  if (spawn.success) c.spawn = { x: spawn.data.x, z: spawn.data.z };
  return c;
}
