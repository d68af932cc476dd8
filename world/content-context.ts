import type { ContentContext, IdSpace, Placement } from '../ecs/core/faces/content.ts';
import type { TileMap } from '../ecs/core/tile-map.ts';
import type { ManifestData } from './schemas/index.ts';

/** The ContentContext the loader hands to the content faces (and the core checks). */

export interface ContextInput {
  ids: ReadonlyMap<IdSpace, ReadonlySet<string>>;
  problems: string[];
  warnings: string[];
  placements: { stations: readonly Placement[]; resources: readonly Placement[] };
  modelBounds: ManifestData<'model-bounds.json'> | undefined;
  /** The tile map once laid (absent while the faces say what they block). */
  map?: TileMap | undefined;
}

export function contentContext(c: ContextInput): ContentContext {
  const footprints = new Map((c.modelBounds?.models ?? []).map((m) => [m.assetPath, m.footprint]));
  const needMap = (): TileMap => {
    if (!c.map) throw new Error('the tile map is not laid yet: walkable() is for check and build');
    return c.map;
  };
  return {
    has: (space, id) => c.ids.get(space)?.has(id) ?? false,
    defines: (space) => c.ids.has(space),
    itemIds: () => c.ids.get('item') ?? [],
    item(file, where, id, soft = false) {
      if (c.ids.get('item')?.has(id)) return;
      (soft ? c.warnings : c.problems).push(`${file}: ${where} (itemId "${id}"): unknown item`);
    },
    problem: (message) => void c.problems.push(message),
    warn: (message) => void c.warnings.push(message),
    unique(file, kind, ids) {
      const seen = new Set<string>();
      for (const id of ids) {
        if (seen.has(id)) c.problems.push(`${file}: ${kind} "${id}": duplicate id`);
        seen.add(id);
      }
    },
    placements: c.placements,
    footprint: (model) => (model ? footprints.get(model) : undefined) ?? { width: 1, depth: 1 },
    inMap: (x, z) => needMap().inBounds(x, z),
    walkable: (x, z) => needMap().isWalkable(x, z),
  };
}
