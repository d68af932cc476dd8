import { z } from 'zod';

/**
 * Which tiles can be walked on, from the server's public map chunks (`GET /api/map/chunk/:cx/:cz`,
 * 64x64 tiles each, fetched once and kept: the ground does not change). Used to pick a tile to walk to
 * next to something that stands where nobody can (a fishing spot in the water, an NPC behind a counter).
 */

const chunk = z.object({
  x: z.number(),
  z: z.number(),
  size: z.number().int().positive(),
  tiles: z.string(),
});

export class Tiles {
  private readonly chunks = new Map<string, Promise<z.infer<typeof chunk> | undefined>>();
  private size = 64;

  /** `token`: the session's, so the chunks count in its REST budget rather than the address's. */
  constructor(
    private readonly httpBase: string,
    private readonly token?: string,
  ) {}

  private chunkAt(x: number, z: number) {
    const cx = Math.floor(x / this.size);
    const cz = Math.floor(z / this.size);
    const key = `${cx},${cz}`;
    let c = this.chunks.get(key);
    if (c === undefined) {
      const headers: Record<string, string> =
        this.token !== undefined ? { authorization: `Bearer ${this.token}` } : {};
      c = fetch(`${this.httpBase}/api/map/chunk/${cx}/${cz}`, {
        headers,
        signal: AbortSignal.timeout(10_000),
      })
        .then(async (res) => (res.ok ? chunk.parse(await res.json()) : undefined))
        .catch(() => undefined);
      this.chunks.set(key, c);
    }
    return c;
  }

  /** True or false from the map; undefined when the map could not be read. */
  async walkable(x: number, z: number): Promise<boolean | undefined> {
    const c = await this.chunkAt(x, z);
    if (c === undefined) return undefined;
    if (c.size !== this.size) this.size = c.size;
    const i = (z - c.z) * c.size + (x - c.x);
    return c.tiles[i] === '0';
  }

  /**
   * The walkable tile nearest to `from` among those within `reach` (Chebyshev) of `target`, the target
   * tile itself first when walkable; unknown map: the target tile.
   */
  async standingTile(
    target: { x: number; z: number },
    from: { x: number; z: number } | undefined,
    reach = 1,
  ): Promise<{ x: number; z: number } | undefined> {
    const own = await this.walkable(target.x, target.z);
    if (own !== false) return target;
    const candidates: { x: number; z: number; d: number }[] = [];
    for (let r = 1; r <= Math.max(reach, 1) + 2; r++) {
      for (let dx = -r; dx <= r; dx++) {
        for (let dz = -r; dz <= r; dz++) {
          if (Math.max(Math.abs(dx), Math.abs(dz)) !== r) continue;
          const t = { x: target.x + dx, z: target.z + dz };
          if ((await this.walkable(t.x, t.z)) !== true) continue;
          const d = from === undefined ? 0 : Math.max(Math.abs(t.x - from.x), Math.abs(t.z - from.z));
          candidates.push({ ...t, d: r * 1000 + d });
        }
      }
      if (candidates.length > 0) break;
    }
    candidates.sort((a, b) => a.d - b.d);
    const best = candidates[0];
    return best === undefined ? undefined : { x: best.x, z: best.z };
  }
}
