/**
 * The world's ground as the server describes it: GET /api/map (extent, spawn, areas with their biome,
 * buildings, water, walking paths) and the walkable tiles, fetched in chunks from
 * GET /api/map/chunk/:cx/:cz around the player.
 */

import type { MapLayout } from '../../net/routes/map-types.ts';

export type MapArea = MapLayout['areas'][number];
type Building = MapLayout['buildings'][number];

/** GET /api/map: the server's own types for the layout (net/routes/map-layout.ts). */
export interface MapInfo extends MapLayout {
  minX: number;
  minZ: number;
  width: number;
  depth: number;
  chunkSize: number;
  chunks: { minCx: number; minCz: number; maxCx: number; maxCz: number };
  spawn: { x: number; z: number };
}

interface Chunk {
  x: number;
  z: number;
  size: number;
  tiles: string;
}

export type Ground = 'void' | 'unknown' | 'grass' | 'path' | 'water' | 'building' | 'blocked';

export class GroundMap {
  private readonly chunks = new Map<string, Chunk | 'loading'>();
  /** Chunks whose fetch failed (e.g. 429): not asked again before this time (ms, performance.now). */
  private readonly retryAt = new Map<string, number>();
  private readonly pathTiles = new Set<number>();
  private readonly buildingAt = new Map<number, Building>();
  /** Bumped when a chunk arrives: cached drawings of the ground are stale. */
  version = 0;

  constructor(readonly info: MapInfo) {
    for (const [z, from, to] of info.paths ?? [])
      for (let x = from; x <= to; x++) this.pathTiles.add(key(x, z));
    for (const b of info.buildings ?? [])
      for (let dz = 0; dz < b.depth; dz++)
        for (let dx = 0; dx < b.width; dx++) this.buildingAt.set(key(b.x + dx, b.z + dz), b);
  }

  static async load(): Promise<GroundMap> {
    const res = await fetch('/api/map');
    if (!res.ok) throw new Error(`GET /api/map: ${res.status}`);
    return new GroundMap((await res.json()) as MapInfo);
  }

  /** Fetch the chunks within `radius` tiles of (x, z) that are not loaded yet. */
  ensureAround(x: number, z: number, radius: number): void {
    const { chunkSize: size, chunks } = this.info;
    for (let cz = Math.floor((z - radius) / size); cz <= Math.floor((z + radius) / size); cz++) {
      for (let cx = Math.floor((x - radius) / size); cx <= Math.floor((x + radius) / size); cx++) {
        if (cx < chunks.minCx || cx > chunks.maxCx || cz < chunks.minCz || cz > chunks.maxCz) continue;
        const k = `${cx},${cz}`;
        if (this.chunks.has(k) || (this.retryAt.get(k) ?? 0) > performance.now()) continue;
        this.chunks.set(k, 'loading');
        fetch(`/api/map/chunk/${cx}/${cz}`)
          .then((r) => (r.ok ? (r.json() as Promise<Chunk>) : Promise.reject(new Error(String(r.status)))))
          .then((c) => {
            this.chunks.set(k, c);
            this.version++;
          })
          .catch(() => {
            this.chunks.delete(k);
            this.retryAt.set(k, performance.now() + 10_000);
          });
      }
    }
  }

  inside(x: number, z: number): boolean {
    const { minX, minZ, width, depth } = this.info;
    return x >= minX && z >= minZ && x < minX + width && z < minZ + depth;
  }

  /** true walkable, false blocked, undefined not loaded yet. */
  walkable(x: number, z: number): boolean | undefined {
    const size = this.info.chunkSize;
    const c = this.chunks.get(`${Math.floor(x / size)},${Math.floor(z / size)}`);
    if (c === undefined || c === 'loading') return this.inside(x, z) ? undefined : false;
    return c.tiles[(z - c.z) * c.size + (x - c.x)] === '0';
  }

  areaAt(x: number, z: number): MapArea | undefined {
    return this.info.areas.find((a) => x >= a.minX && x <= a.maxX && z >= a.minZ && z <= a.maxZ);
  }

  buildingOn(x: number, z: number): Building | undefined {
    return this.buildingAt.get(key(x, z));
  }

  isWater(x: number, z: number): boolean {
    return (this.info.water ?? []).some((w) => (x - w.x) ** 2 + (z - w.z) ** 2 <= w.radius * w.radius + 0.5);
  }

  /** What lies on a tile, for the ground's colour. */
  ground(x: number, z: number): Ground {
    if (!this.inside(x, z)) return 'void';
    if (this.buildingAt.has(key(x, z))) return 'building';
    if (this.isWater(x, z)) return 'water';
    const w = this.walkable(x, z);
    if (w === undefined) return 'unknown';
    if (!w) return 'blocked';
    return this.pathTiles.has(key(x, z)) ? 'path' : 'grass';
  }
}

/** One number per tile (coordinates stay well within ±2^20). */
const key = (x: number, z: number) => (z + 1_048_576) * 2_097_152 + (x + 1_048_576);
