import type { SimContent } from '../../ecs/core/content.ts';
import type { TileMap } from '../../ecs/core/tile-map.ts';
import type { ContentRegistry } from '../../world/registry.ts';
import type { MapArea, MapBuilding, MapLayout } from './map-types.ts';

export type { MapArea, MapBuilding, MapLayout } from './map-types.ts';

/**
 * What a client needs to draw the world besides walkability, from the content: each area's biome and
 * terrain, the buildings' outlines and doors, the water the fishing spots stand in, and the walking
 * paths from the spawn to every building door, station, service NPC and area (derived once from the
 * tile map, so they only cross walkable ground).
 */

export type LayoutContent = Pick<
  SimContent,
  'map' | 'spawn' | 'worldAreas' | 'resourceSpawns' | 'stationSpawns' | 'npcSpawns' | 'gatheringNodes'
>;
export type LayoutRegistry = Pick<ContentRegistry, 'areas' | 'biomes' | 'buildings'>;

export function mapLayout(content: LayoutContent, registry: LayoutRegistry | undefined): MapLayout {
  const areas = content.worldAreas.map((a): MapArea => {
    const def = registry?.areas.get(a.id);
    const biome = def?.biomeType ?? 'unknown';
    return {
      id: a.id,
      name: a.name,
      minX: a.minX,
      maxX: a.maxX,
      minZ: a.minZ,
      maxZ: a.maxZ,
      biome,
      terrain: registry?.biomes.get(biome)?.terrain ?? null,
      safeZone: def?.safeZone ?? false,
      pvpEnabled: def?.pvpEnabled ?? false,
      difficulty: def?.difficultyLevel ?? 0,
    };
  });
  const buildings = (registry?.buildings ?? []).map(
    (b): MapBuilding => ({
      id: b.id,
      name: b.name,
      x: b.position.x,
      z: b.position.z,
      width: b.footprint.width,
      depth: b.footprint.depth,
      door: b.door ? { x: b.door.x, z: b.door.z } : null,
    }),
  );
  const water = content.resourceSpawns
    .filter((r) => content.gatheringNodes?.get(r.resourceId)?.skill === 'fishing')
    .map((r) => {
      const node = content.gatheringNodes?.get(r.resourceId);
      const moves = node !== undefined && node.moveTicks > 0;
      return { x: r.x, z: r.z, radius: 2 + (moves ? node.moveRadius : 0) };
    });
  return { areas, buildings, water, paths: walkingPaths(content, buildings, areas) };
}

/**
 * Paths from the spawn to each building door, station, service NPC (the tile itself when walkable, else a
 * walkable neighbour) and area the spawn is not in (its walkable tile the fewest steps away). Built like
 * a road network: targets nearest the spawn first, each joined by a shortest walk to the nearest tile
 * already on a path, so paths share their trunks.
 */
function walkingPaths(
  content: LayoutContent,
  buildings: MapBuilding[],
  areas: MapArea[],
): [number, number, number][] {
  const { map, spawn } = content;
  // Search only the box around the areas (plus a margin): the rest of the map holds nothing to walk to.
  const margin = 8;
  const box = {
    minX: Math.max(map.minX, Math.min(spawn.x, ...areas.map((a) => a.minX)) - margin),
    maxX: Math.min(map.maxX, Math.max(spawn.x, ...areas.map((a) => a.maxX)) + margin),
    minZ: Math.max(map.minZ, Math.min(spawn.z, ...areas.map((a) => a.minZ)) - margin),
    maxZ: Math.min(map.maxZ, Math.max(spawn.z, ...areas.map((a) => a.maxZ)) + margin),
  };
  const w = box.maxX - box.minX + 1;
  const d = box.maxZ - box.minZ + 1;
  if (w <= 0 || d <= 0 || !map.isWalkable(spawn.x, spawn.z)) return [];
  const grid = new Grid(map, box.minX, box.minZ, w, d);
  const idx = (x: number, z: number) => (z - box.minZ) * w + (x - box.minX);
  const fromSpawn = grid.search([idx(spawn.x, spawn.z)], () => false);
  const reached = (x: number, z: number) =>
    x >= box.minX && x <= box.maxX && z >= box.minZ && z <= box.maxZ && fromSpawn.parent[idx(x, z)] !== -1;

  const targets = new Set<number>();
  const near = (x: number, z: number) => {
    const found = NEIGHBOURHOOD.find(([dx, dz]) => reached(x + dx, z + dz));
    if (found) targets.add(idx(x + found[0], z + found[1]));
  };
  for (const b of buildings) if (b.door) near(b.door.x, b.door.z);
  for (const s of content.stationSpawns) near(s.x, s.z);
  for (const n of content.npcSpawns) if (n.service !== undefined) near(n.x, n.z);
  for (const a of areas) {
    if (spawn.x >= a.minX && spawn.x <= a.maxX && spawn.z >= a.minZ && spawn.z <= a.maxZ) continue;
    const entry = fromSpawn.order.find((i) => {
      const x = box.minX + (i % w);
      const z = box.minZ + Math.floor(i / w);
      return x >= a.minX && x <= a.maxX && z >= a.minZ && z <= a.maxZ;
    });
    if (entry !== undefined) targets.add(entry);
  }

  const onPath = new Uint8Array(w * d);
  onPath[idx(spawn.x, spawn.z)] = 1;
  const rank = new Map<number, number>();
  fromSpawn.order.forEach((i, n) => {
    if (targets.has(i)) rank.set(i, n);
  });
  for (const t of [...targets].sort((a, b) => (rank.get(a) ?? 0) - (rank.get(b) ?? 0))) {
    const walk = grid.search([t], (i) => onPath[i] === 1);
    for (let i = walk.found; i !== -1; i = walk.parent[i] === i ? -1 : (walk.parent[i] as number))
      onPath[i] = 1;
  }
  const runs: [number, number, number][] = [];
  for (let z = 0; z < d; z++) {
    let start = -1;
    for (let x = 0; x <= w; x++) {
      const on = x < w && onPath[z * w + x] === 1;
      if (on && start < 0) start = x;
      if (!on && start >= 0) {
        runs.push([box.minZ + z, box.minX + start, box.minX + x - 1]);
        start = -1;
      }
    }
  }
  return runs;
}

const NEIGHBOURHOOD = [
  [0, 0],
  [0, 1],
  [0, -1],
  [1, 0],
  [-1, 0],
] as const;

/** The walkable tiles of a box of the map, searched breadth first (4 neighbours). */
class Grid {
  private readonly queue: Int32Array;

  constructor(
    private readonly map: TileMap,
    private readonly minX: number,
    private readonly minZ: number,
    private readonly w: number,
    private readonly d: number,
  ) {
    this.queue = new Int32Array(w * d);
  }

  /**
   * From the start tiles until `stop` holds for a reached tile (its index is `found`, -1 if none): each
   * reached tile's parent (-1 unreached, a start its own parent) and the tiles in the order reached.
   */
  search(
    starts: number[],
    stop: (i: number) => boolean,
  ): { parent: Int32Array; order: Int32Array; found: number } {
    const { w, d, queue } = this;
    const parent = new Int32Array(w * d).fill(-1);
    let tail = 0;
    for (const s of starts) {
      parent[s] = s;
      queue[tail++] = s;
    }
    let head = 0;
    while (head < tail) {
      const i = queue[head++] as number;
      if (stop(i)) return { parent, order: queue.slice(0, tail), found: i };
      const x = i % w;
      const z = (i - x) / w;
      for (const [nx, nz] of [
        [x + 1, z],
        [x - 1, z],
        [x, z + 1],
        [x, z - 1],
      ] as const) {
        if (nx < 0 || nz < 0 || nx >= w || nz >= d) continue;
        const n = nz * w + nx;
        if (parent[n] !== -1 || !this.map.isWalkable(this.minX + nx, this.minZ + nz)) continue;
        parent[n] = i;
        queue[tail++] = n;
      }
    }
    return { parent, order: queue.slice(0, tail), found: -1 };
  }
}
