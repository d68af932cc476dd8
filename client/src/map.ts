/** The walkable ground, fetched in chunks from GET /api/map/chunk/:cx/:cz around the player. */

export interface MapInfo {
  minX: number;
  minZ: number;
  width: number;
  depth: number;
  chunkSize: number;
  chunks: { minCx: number; minCz: number; maxCx: number; maxCz: number };
  spawn: { x: number; z: number };
  areas: { id: string; name: string; minX: number; maxX: number; minZ: number; maxZ: number }[];
}

interface Chunk {
  x: number;
  z: number;
  size: number;
  tiles: string;
}

export class GroundMap {
  private readonly chunks = new Map<string, Chunk | 'loading'>();
  /** Chunks whose fetch failed (e.g. 429): not asked again before this time (ms, performance.now). */
  private readonly retryAt = new Map<string, number>();

  constructor(readonly info: MapInfo) {}

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
        const key = `${cx},${cz}`;
        if (this.chunks.has(key) || (this.retryAt.get(key) ?? 0) > performance.now()) continue;
        this.chunks.set(key, 'loading');
        fetch(`/api/map/chunk/${cx}/${cz}`)
          .then((r) => (r.ok ? (r.json() as Promise<Chunk>) : Promise.reject(new Error(String(r.status)))))
          .then((c) => this.chunks.set(key, c))
          .catch(() => {
            this.chunks.delete(key);
            this.retryAt.set(key, performance.now() + 10_000);
          });
      }
    }
  }

  /** true walkable, false blocked, undefined not loaded yet. */
  walkable(x: number, z: number): boolean | undefined {
    const size = this.info.chunkSize;
    const c = this.chunks.get(`${Math.floor(x / size)},${Math.floor(z / size)}`);
    if (c === undefined || c === 'loading') {
      const { minX, minZ, width, depth } = this.info;
      if (x < minX || z < minZ || x >= minX + width || z >= minZ + depth) return false;
      return undefined;
    }
    return c.tiles[(z - c.z) * c.size + (x - c.x)] === '0';
  }

  areaAt(x: number, z: number): MapInfo['areas'][number] | undefined {
    return this.info.areas.find((a) => x >= a.minX && x <= a.maxX && z >= a.minZ && z <= a.maxZ);
  }
}
