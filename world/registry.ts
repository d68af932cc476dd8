import type { ContentParts } from '../ecs/core/content.ts';
import type { IdSpace } from '../ecs/core/faces/content.ts';
import type { Skill } from '../ecs/core/skills.ts';
import type { TileMap } from '../ecs/core/tile-map.ts';
import type { AreaPlacements } from './placements.ts';
import type { AreaDef, BiomeDef } from './schemas/areas.ts';
import type { ManifestData } from './schemas/index.ts';
import type { ItemDef } from './schemas/items.ts';
import type { NpcDef } from './schemas/npcs.ts';
import type { SkillUnlock } from './schemas/progression.ts';
import type { CharacterTemplate, WorldFile } from './schemas/project.ts';

/** The validated, cross-referenced, deeply frozen game content. Built once by loadContent. */
export interface ContentRegistry {
  readonly items: ReadonlyMap<string, ItemDef>;
  readonly npcs: ReadonlyMap<string, NpcDef>;
  /** Every area of world-areas.json by id, with the group it was listed under (`starterTowns` ...). */
  readonly areas: ReadonlyMap<string, AreaDef & { readonly group: string }>;
  readonly biomes: ReadonlyMap<string, BiomeDef>;
  readonly music: ManifestData<'music.json'>;
  readonly vegetation: ManifestData<'vegetation.json'> | undefined;
  readonly buildings: ManifestData<'buildings.json'>;
  /** Every one of the 17 skills, `defence` folded into `defense`; empty where nothing unlocks. */
  readonly skillUnlocks: Readonly<Record<Skill, readonly SkillUnlock[]>>;
  readonly tierRequirements: ManifestData<'tier-requirements.json'> | undefined;
  readonly duelArenas: ManifestData<'duel-arenas.json'> | undefined;
  readonly lodSettings: ManifestData<'lod-settings.json'> | undefined;
  readonly modelBounds: ManifestData<'model-bounds.json'> | undefined;
  /** Our world.json extension, when present. */
  readonly world: WorldFile | undefined;
  /** Never empty: character-templates.json, or one default built from the items that exist. */
  readonly templates: readonly CharacterTemplate[];
  /** Manifest files that were read, relative to the manifests directory. */
  readonly files: readonly string[];
  /** Soft reference problems the reference content has and the server tolerates (see docs/content.md). */
  readonly warnings: readonly string[];
  /** The features' manifests as validated, by file (each feature's content face reads its own). */
  readonly manifests: Readonly<Record<string, unknown>>;
  /** Every content id by space (items, NPCs, areas, and what the faces define: stores, quests...). */
  readonly ids: ReadonlyMap<IdSpace, ReadonlySet<string>>;
  /** The simulation's content parts the features' faces built (shops, quests, recipes...). */
  readonly parts: Readonly<Partial<ContentParts>>;
  /** Stations and resource nodes world-areas.json places, in area order (fishing spots laid out). */
  readonly placements: AreaPlacements;
  /** The tile map (buildings and what the faces block) and the spawn on its nearest walkable tile. */
  readonly layout: { readonly map: TileMap; readonly spawn: { readonly x: number; readonly z: number } };
}

/** A Map that refuses changes, so the registry stays deeply frozen. */
export function frozenMap<K, V>(entries: Iterable<readonly [K, V]>): ReadonlyMap<K, V> {
  const map = new Map<K, V>();
  for (const [k, v] of entries) map.set(k, deepFreeze(v));
  const refuse = () => {
    throw new TypeError('content registry is read-only');
  };
  Object.defineProperties(map, {
    set: { value: refuse },
    delete: { value: refuse },
    clear: { value: refuse },
  });
  return Object.freeze(map);
}

export function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value) && !(value instanceof Map)) {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}
