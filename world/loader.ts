import { stat } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import type { IdSpace } from '../ecs/core/faces/content.ts';
import { normalizeSkill, SKILLS, type Skill } from '../ecs/core/skills.ts';
import { contentContext } from './content-context.ts';
import { ContentError } from './content-error.ts';
import { FACE_REQUIRED, faceBlocks, faceChecks, faceIds, faceParts, readFaces } from './content-faces.ts';
import { checkCoreRefs, checkPlacements } from './cross-refs.ts';
import { areaPlacements } from './placements.ts';
import { describeIssue, listJson, readManifest } from './read-manifest.ts';
import { type ContentRegistry, deepFreeze, frozenMap } from './registry.ts';
import {
  CORE_MANIFEST_SCHEMAS,
  CORE_REQUIRED,
  type ManifestData,
  type ManifestFile,
} from './schemas/index.ts';
import { type ItemDef, itemSchema } from './schemas/items.ts';
import type { SkillUnlock } from './schemas/progression.ts';
import { defaultTemplate } from './templates.ts';
import { buildTileMap, chooseSpawn, worldBounds } from './world-layout.ts';

const itemsListSchema = z.array(z.unknown());

type Loaded = { [F in ManifestFile]?: ManifestData<F> };

/**
 * Read, validate and cross-reference every manifest under `manifestsDir`; return one deeply frozen
 * registry. Throws ContentError listing every problem (file, entry, field) when anything is wrong.
 *
 * The core manifests and every feature's content face (content-faces.ts) go through one pipeline: read
 * and validate; collect the ids each defines; lay the tile map with what each face blocks; run the core
 * checks and each face's checks; build each face's part of the simulation's content.
 */
export async function loadContent(manifestsDir: string): Promise<ContentRegistry> {
  const dir = path.resolve(manifestsDir);
  const problems: string[] = [];
  const files: string[] = [];
  const isDir = await stat(dir).then(
    (s) => s.isDirectory(),
    () => false,
  );
  if (!isDir) problems.push(`${dir}: the manifests directory does not exist`);

  const data: Loaded = {};
  for (const rel of Object.keys(CORE_MANIFEST_SCHEMAS) as ManifestFile[]) {
    const r = await readManifest(dir, rel, CORE_MANIFEST_SCHEMAS[rel]);
    if (r.ok) {
      (data as Record<string, unknown>)[rel] = r.data;
      files.push(rel);
    } else if (!r.missing) {
      problems.push(...r.problems);
    } else if ((CORE_REQUIRED as readonly string[]).includes(rel)) {
      problems.push(`${rel}: required manifest is missing`);
    }
  }
  const faces = await readFaces(dir, problems, files);

  const items = await loadItems(dir, problems, files);
  const npcs = data['npcs.json'];
  const areas = data['world-areas.json'];
  const biomes = data['biomes.json'];
  const faceFilesMissing = FACE_REQUIRED.some((f) => !files.includes(f));
  if (!npcs || !areas || !biomes || !items || faceFilesMissing) throw new ContentError(problems);

  const areaList = Object.entries(areas).flatMap(([group, byKey]) =>
    Object.values(byKey).map((a) => ({ ...a, group })),
  );
  duplicates('npcs.json', 'npc', npcs, (n) => n.id, problems);
  duplicates('world-areas.json', 'area', areaList, (a) => a.id, problems);
  duplicates('biomes.json', 'biome', biomes, (b) => b.id, problems);
  const templateFile = data['character-templates.json'];
  if (templateFile) duplicates('character-templates.json', 'template', templateFile, (t) => t.id, problems);

  const ids = new Map<IdSpace, Set<string>>([
    ['item', new Set(items.keys())],
    ['npc', new Set(npcs.map((n) => n.id))],
    ['area', new Set(areaList.map((a) => a.id))],
  ]);
  faceIds(faces, ids);
  const warnings: string[] = [];
  const placements = areaPlacements(areas);
  const ctxInput = { ids, problems, warnings, placements, modelBounds: data['model-bounds.json'] };
  const blocked = faceBlocks(faces, contentContext(ctxInput));
  const core = {
    world: data['world.json'],
    areas: new Map(areaList.map((a) => [a.id, a])),
    buildings: data['buildings.json'] ?? [],
  };
  const spawnGuess = chooseSpawn(core);
  const layout = buildTileMap(core, worldBounds(core, spawnGuess), spawnGuess, blocked);
  const ctx = contentContext({ ...ctxInput, map: layout.map });

  checkCoreRefs({ items, npcs, areas, biomes, templates: templateFile }, ctx);
  faceChecks(faces, ctx);
  problems.push(...checkPlacements(data['world.json'], areas, data['buildings.json']));
  if (problems.length > 0) throw new ContentError(problems);
  const parts = faceParts(faces, ctx);

  const registry: ContentRegistry = {
    items,
    npcs: frozenMap(npcs.map((n) => [n.id, n])),
    areas: frozenMap(areaList.map((a) => [a.id, a])),
    biomes: frozenMap(biomes.map((b) => [b.id, b])),
    music: data['music.json'] ?? [],
    vegetation: data['vegetation.json'],
    buildings: data['buildings.json'] ?? [],
    skillUnlocks: normaliseUnlocks(data['skill-unlocks.json']?.skills ?? {}),
    tierRequirements: data['tier-requirements.json'],
    duelArenas: data['duel-arenas.json'],
    lodSettings: data['lod-settings.json'],
    modelBounds: data['model-bounds.json'],
    world: data['world.json'],
    templates: templateFile ?? [defaultTemplate(items)],
    files: files.sort(),
    warnings,
    manifests: Object.fromEntries([...faces.values()].flatMap((d) => Object.entries(d))),
    ids,
    placements,
    parts,
    // Frozen here, not deeply: the tile map is typed arrays the simulation only reads.
    layout: Object.freeze({ map: layout.map, spawn: Object.freeze(layout.spawn) }),
  };
  return deepFreeze(registry);
}

/** items.json, or every items/*.json (both may exist; ids must be unique across all of them). */
async function loadItems(
  dir: string,
  problems: string[],
  files: string[],
): Promise<ReadonlyMap<string, ItemDef> | undefined> {
  const folder = (await listJson(path.join(dir, 'items'))) ?? [];
  const sources = ['items.json', ...folder.map((f) => `items/${f}`)];
  const byId = new Map<string, { item: ItemDef; file: string }>();
  let found = 0;
  let failed = false;
  for (const rel of sources) {
    const r = await readManifest(dir, rel, itemsListSchema);
    if (!r.ok) {
      if (!r.missing) {
        problems.push(...r.problems);
        failed = true;
      }
      continue;
    }
    found++;
    files.push(rel);
    // Entry by entry, so one bad item does not hide the file's other items from the cross-reference checks.
    for (let i = 0; i < r.data.length; i++) {
      const parsed = itemSchema.safeParse(r.data[i]);
      if (!parsed.success) {
        for (const issue of parsed.error.issues) {
          problems.push(describeIssue(rel, r.data, { ...issue, path: [i, ...issue.path] }));
        }
        continue;
      }
      const item = parsed.data;
      const prev = byId.get(item.id);
      if (prev) problems.push(`${rel}: item "${item.id}": duplicate id (also in ${prev.file})`);
      else byId.set(item.id, { item, file: rel });
    }
  }
  if (found === 0 && !failed) {
    problems.push(
      'items.json: required manifest is missing (nor is there an items/ folder with *.json files)',
    );
    return undefined;
  }
  return frozenMap([...byId].map(([id, v]) => [id, v.item]));
}

function duplicates<T>(file: string, kind: string, list: readonly T[], key: (t: T) => string, out: string[]) {
  const seen = new Set<string>();
  for (const entry of list) {
    const k = key(entry);
    if (seen.has(k)) out.push(`${file}: ${kind} "${k}": duplicate id`);
    seen.add(k);
  }
}

/** Every one of the 17 skills gets a key; `defence` is folded into `defense`; entries sorted by level. */
function normaliseUnlocks(
  raw: Record<string, readonly SkillUnlock[]>,
): Record<Skill, readonly SkillUnlock[]> {
  const out = Object.fromEntries(SKILLS.map((s) => [s, [] as SkillUnlock[]])) as Record<Skill, SkillUnlock[]>;
  for (const [name, list] of Object.entries(raw)) {
    const skill = normalizeSkill(name);
    if (skill) out[skill].push(...list);
  }
  for (const s of SKILLS) out[s].sort((a, b) => a.level - b.level);
  return out;
}
