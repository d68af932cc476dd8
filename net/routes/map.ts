import { notFound, type RouteDef } from '../http/types.ts';
import { type LayoutContent, type LayoutRegistry, type MapLayout, mapLayout } from './map-layout.ts';

/**
 * The ground for clients that draw it: GET /api/map (the map's extent, chunk size, spawn, world areas
 * with their biome, buildings, water and walking paths: map-layout.ts) and GET /api/map/chunk/:cx/:cz
 * (one square chunk of tiles, `tiles` a string of `0` walkable / `1` blocked, row by row from the
 * chunk's north-west corner: index = dz * size + dx). Tiles outside the map are blocked. Public (the map
 * is content), cached by browsers for 5 minutes.
 */

/** Tiles on a side of a chunk. */
export const MAP_CHUNK_SIZE = 64;

const CACHE = { 'cache-control': 'public, max-age=300' };

export function mapRoutes(content: LayoutContent, registry?: LayoutRegistry): RouteDef[] {
  const { map } = content;
  const size = MAP_CHUNK_SIZE;
  // Chunk (cx, cz) covers tiles [cx*size, (cx+1)*size) x [cz*size, (cz+1)*size).
  const first = { cx: Math.floor(map.minX / size), cz: Math.floor(map.minZ / size) };
  const last = {
    cx: Math.floor((map.minX + map.width - 1) / size),
    cz: Math.floor((map.minZ + map.depth - 1) / size),
  };
  const chunks = new Map<string, string>();
  const tilesOf = (cx: number, cz: number): string => {
    const key = `${cx},${cz}`;
    let tiles = chunks.get(key);
    if (tiles === undefined) {
      const out = new Array<string>(size * size);
      for (let dz = 0; dz < size; dz++) {
        for (let dx = 0; dx < size; dx++) {
          out[dz * size + dx] = map.isWalkable(cx * size + dx, cz * size + dz) ? '0' : '1';
        }
      }
      tiles = out.join('');
      chunks.set(key, tiles);
    }
    return tiles;
  };
  // The layout's paths take a search over the map: done on the first request, not at start-up.
  let summary: ({ [k: string]: unknown } & MapLayout) | undefined;
  const describe = () =>
    (summary ??= {
      minX: map.minX,
      minZ: map.minZ,
      width: map.width,
      depth: map.depth,
      chunkSize: size,
      chunks: { minCx: first.cx, minCz: first.cz, maxCx: last.cx, maxCz: last.cz },
      spawn: { x: content.spawn.x, z: content.spawn.z },
      ...mapLayout(content, registry),
    });
  return [
    { method: 'GET', path: '/api/map', handler: () => ({ headers: CACHE, body: describe() }) },
    {
      method: 'GET',
      path: '/api/map/chunk/:cx/:cz',
      handler: (req) => {
        const cx = chunkIndex(req.params.cx);
        const cz = chunkIndex(req.params.cz);
        if (cx === null || cz === null || cx < first.cx || cx > last.cx || cz < first.cz || cz > last.cz) {
          throw notFound(`No map chunk ${req.params.cx},${req.params.cz}`);
        }
        return { headers: CACHE, body: { cx, cz, x: cx * size, z: cz * size, size, tiles: tilesOf(cx, cz) } };
      },
    },
  ];
}

function chunkIndex(s: string | undefined): number | null {
  if (s === undefined || !/^-?\d{1,6}$/.test(s)) return null;
  return Number(s);
}
