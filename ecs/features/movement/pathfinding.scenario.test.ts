import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TileMap } from '../../core/tile-map.ts';
import { AStar } from './astar.ts';
import { labelRegions, regionAt } from './regions.ts';

const DIRS = [
  [1, 0, 10],
  [-1, 0, 10],
  [0, 1, 10],
  [0, -1, 10],
  [1, 1, 14],
  [1, -1, 14],
  [-1, 1, 14],
  [-1, -1, 14],
] as const;

/** Reference: plain Dijkstra over the same move rule (8 directions, no corner cutting). */
function dijkstraCost(map: TileMap, sx: number, sz: number, tx: number, tz: number): number | null {
  const dist = new Map<string, number>([[`${sx},${sz}`, 0]]);
  const open: [number, number, number][] = [[0, sx, sz]];
  while (open.length > 0) {
    open.sort((a, b) => a[0] - b[0]);
    const [d, x, z] = open.shift() as [number, number, number];
    if (x === tx && z === tz) return d;
    if (d > (dist.get(`${x},${z}`) ?? Infinity)) continue;
    for (const [dx, dz, cost] of DIRS) {
      const nx = x + dx;
      const nz = z + dz;
      if (!map.isWalkable(nx, nz)) continue;
      if (dx !== 0 && dz !== 0 && (!map.isWalkable(x + dx, z) || !map.isWalkable(x, z + dz))) continue;
      const nd = d + cost;
      if (nd < (dist.get(`${nx},${nz}`) ?? Infinity)) {
        dist.set(`${nx},${nz}`, nd);
        open.push([nd, nx, nz]);
      }
    }
  }
  return null;
}

function pathCost(sx: number, sz: number, path: Int32Array): number {
  let cost = 0;
  let x = sx;
  let z = sz;
  for (let i = 0; i < path.length; i += 2) {
    const nx = path[i] as number;
    const nz = path[i + 1] as number;
    cost += nx !== x && nz !== z ? 14 : 10;
    x = nx;
    z = nz;
  }
  return cost;
}

const SIZE = 16;
const mapArb = fc.record({
  blocked: fc.uint8Array({ minLength: SIZE * SIZE, maxLength: SIZE * SIZE }),
  density: fc.integer({ min: 0, max: 90 }),
  s: fc.tuple(fc.integer({ min: 0, max: SIZE - 1 }), fc.integer({ min: 0, max: SIZE - 1 })),
  t: fc.tuple(fc.integer({ min: 0, max: SIZE - 1 }), fc.integer({ min: 0, max: SIZE - 1 })),
});

describe('A* pathfinding', () => {
  it('finds a valid, shortest path exactly when one exists (random maps against Dijkstra)', () => {
    const astar = new AStar(24);
    fc.assert(
      fc.property(mapArb, ({ blocked, density, s, t }) => {
        const cells = blocked.map((b) => ((b * 100) / 256 < density * 0.45 ? 1 : 0));
        const map = new TileMap(0, 0, SIZE, SIZE, Uint8Array.from(cells));
        map.setBlocked(s[0], s[1], false);
        map.setBlocked(t[0], t[1], false);
        const expected = dijkstraCost(map, s[0], s[1], t[0], t[1]);
        astar.begin(map, s[0], s[1], t[0], t[1]);
        // A small budget per call exercises resuming a search across ticks.
        let status = astar.run(7);
        while (status === 'more') status = astar.run(7);
        if (expected === null) {
          expect(status).toBe('unreachable');
          return;
        }
        expect(status).toBe('found');
        const path = astar.path();
        let x = s[0];
        let z = s[1];
        for (let i = 0; i < path.length; i += 2) {
          const nx = path[i] as number;
          const nz = path[i + 1] as number;
          expect(Math.max(Math.abs(nx - x), Math.abs(nz - z))).toBe(1);
          expect(map.isWalkable(nx, nz)).toBe(true);
          if (nx !== x && nz !== z) {
            expect(map.isWalkable(nx, z) && map.isWalkable(x, nz)).toBe(true);
          }
          x = nx;
          z = nz;
        }
        expect([x, z]).toEqual(t);
        expect(pathCost(s[0], s[1], path)).toBe(expected);
        // Regions agree with reachability.
        const labels = labelRegions(map);
        expect(regionAt(map, labels, s[0], s[1])).toBe(regionAt(map, labels, t[0], t[1]));
      }),
      { numRuns: 300 },
    );
  });

  it('does not cut corners: two blocked orthogonal neighbours forbid the diagonal', () => {
    const map = new TileMap(0, 0, 5, 5);
    map.setBlocked(2, 1);
    map.setBlocked(1, 2);
    const astar = new AStar(8);
    astar.begin(map, 1, 1, 2, 2);
    expect(astar.run(1000)).toBe('found');
    expect(astar.path().length / 2).toBeGreaterThan(1);
  });

  it('stays inside its search box: a target reachable only through a long detour is unreachable', () => {
    const map = new TileMap(0, 0, 60, 60);
    // A wall at x = 10 open only at z = 59, far outside a box of 8 around the start.
    for (let z = 0; z < 59; z++) map.setBlocked(10, z);
    const astar = new AStar(8);
    astar.begin(map, 8, 5, 12, 5);
    expect(astar.run(100_000)).toBe('unreachable');
    expect(astar.expanded).toBeLessThanOrEqual(17 * 17);
  });
});
