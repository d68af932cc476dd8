import type { TileRect } from '../ecs/core/faces/content.ts';
import { TileMap } from '../ecs/core/tile-map.ts';
import type { ContentRegistry } from './registry.ts';

/** World bounds, spawn point and blocked tiles, from world.json or derived from the areas. */

export interface Bounds {
  minX: number;
  maxX: number;
  minZ: number;
  maxZ: number;
}

/** Smallest side of a derived world, and the margin kept around everything placed in it. */
export const MIN_WORLD_SIZE = 1000;
export const WORLD_MARGIN = 50;

/**
 * world.json's spawn, else the starter town's: its `spawnPoint`, else the centroid of its NPC positions,
 * else its bounds centre. The starter town is the first area listed under `starterTowns` (or whose biome
 * is `starter_town`); without one, the first area.
 */
export function chooseSpawn(registry: Pick<ContentRegistry, 'world' | 'areas'>): { x: number; z: number } {
  if (registry.world) return { x: Math.floor(registry.world.spawn.x), z: Math.floor(registry.world.spawn.z) };
  const areas = [...registry.areas.values()];
  const town =
    areas.find((a) => a.group === 'starterTowns') ??
    areas.find((a) => a.biomeType === 'starter_town') ??
    areas[0];
  if (!town) return { x: 0, z: 0 };
  if (town.spawnPoint) return { x: Math.floor(town.spawnPoint.x), z: Math.floor(town.spawnPoint.z) };
  if (town.npcs.length > 0) {
    const sx = town.npcs.reduce((s, n) => s + n.position.x, 0);
    const sz = town.npcs.reduce((s, n) => s + n.position.z, 0);
    return { x: Math.floor(sx / town.npcs.length), z: Math.floor(sz / town.npcs.length) };
  }
  const b = town.bounds;
  return { x: Math.floor((b.minX + b.maxX) / 2), z: Math.floor((b.minZ + b.maxZ) / 2) };
}

/**
 * world.json's bounds, else a square centred on the spawn that covers every area and placed thing with
 * WORLD_MARGIN to spare, at least MIN_WORLD_SIZE on a side.
 */
export function worldBounds(
  registry: Pick<ContentRegistry, 'world' | 'areas' | 'buildings'>,
  spawn: { x: number; z: number },
): Bounds {
  if (registry.world) return { ...registry.world.bounds };
  let reach = 0;
  const see = (x: number, z: number) => {
    reach = Math.max(reach, Math.abs(x - spawn.x), Math.abs(z - spawn.z));
  };
  for (const a of registry.areas.values()) {
    see(a.bounds.minX, a.bounds.minZ);
    see(a.bounds.maxX, a.bounds.maxZ);
    for (const p of [...a.npcs, ...a.mobSpawns, ...a.resources, ...a.stations])
      see(p.position.x, p.position.z);
  }
  for (const b of registry.buildings) see(b.position.x + b.footprint.width, b.position.z + b.footprint.depth);
  const half = Math.max(MIN_WORLD_SIZE / 2, Math.ceil(reach) + WORLD_MARGIN);
  return { minX: spawn.x - half, maxX: spawn.x + half - 1, minZ: spawn.z - half, maxZ: spawn.z + half - 1 };
}

/**
 * The tile map: `blocked` (what the features' content faces make unwalkable: stations, resource nodes,
 * rock faces), then buildings with their doors left open; and the spawn moved to the nearest walkable tile.
 */
export function buildTileMap(
  registry: Pick<ContentRegistry, 'buildings'>,
  bounds: Bounds,
  spawnGuess: { x: number; z: number },
  blocked: readonly TileRect[],
): { map: TileMap; spawn: { x: number; z: number } } {
  const map = new TileMap(
    bounds.minX,
    bounds.minZ,
    bounds.maxX - bounds.minX + 1,
    bounds.maxZ - bounds.minZ + 1,
  );
  for (const r of blocked) {
    for (let z = r.minZ; z <= r.maxZ; z++) for (let x = r.minX; x <= r.maxX; x++) map.setBlocked(x, z);
  }
  for (const b of registry.buildings) {
    for (let dz = 0; dz < b.footprint.depth; dz++) {
      for (let dx = 0; dx < b.footprint.width; dx++) map.setBlocked(b.position.x + dx, b.position.z + dz);
    }
    if (b.door) map.setBlocked(b.door.x, b.door.z, false);
  }
  return { map, spawn: nearestWalkable(map, spawnGuess) };
}

/** The spawn tile itself if walkable, else the closest walkable tile in growing rings. */
function nearestWalkable(map: TileMap, p: { x: number; z: number }): { x: number; z: number } {
  const x0 = Math.min(Math.max(p.x, map.minX), map.maxX);
  const z0 = Math.min(Math.max(p.z, map.minZ), map.maxZ);
  for (let r = 0; r < Math.max(map.width, map.depth); r++) {
    for (let dz = -r; dz <= r; dz++) {
      for (let dx = -r; dx <= r; dx++) {
        if (Math.max(Math.abs(dx), Math.abs(dz)) !== r) continue;
        if (map.isWalkable(x0 + dx, z0 + dz)) return { x: x0 + dx, z: z0 + dz };
      }
    }
  }
  return { x: x0, z: z0 };
}
