import type { TileMap } from '../../core/tile-map.ts';

/**
 * A* over the tile map with 8-direction moves (a diagonal needs both orthogonal neighbours walkable:
 * no corner cutting), bounded to a square box around the start. Resumable: run() expands at most a given
 * number of nodes and can be called again next tick, so one long search never stalls a tick. All buffers
 * are typed arrays allocated once and reused through a generation stamp (no clearing between searches).
 */

const STRAIGHT = 10;
const DIAGONAL = 14;
const DX = [1, -1, 0, 0, 1, 1, -1, -1];
const DZ = [0, 0, 1, -1, 1, -1, 1, -1];

export type SearchStatus = 'found' | 'unreachable' | 'more';

export class AStar {
  /** Half side of the search box: the search never leaves [start - bound, start + bound]. */
  readonly bound: number;
  private readonly side: number;
  private readonly g: Int32Array;
  private readonly parent: Int32Array;
  /** stamp === gen: node opened in this search; closedStamp === gen: expanded. */
  private readonly stamp: Uint32Array;
  private readonly closedStamp: Uint32Array;
  private gen = 0;
  // Binary min-heap with lazy deletion: node indices and their keys (f * 2^16 + h, ties go to the nearer).
  private heapNode: Int32Array;
  private heapKey: Float64Array;
  private heapSize = 0;
  private map: TileMap | null = null;
  private bx = 0;
  private bz = 0;
  private tx = 0;
  private tz = 0;
  private goal = -1;
  /** Nodes expanded by the current search so far. */
  expanded = 0;

  constructor(bound: number) {
    this.bound = bound;
    this.side = bound * 2 + 1;
    const cells = this.side * this.side;
    this.g = new Int32Array(cells);
    this.parent = new Int32Array(cells);
    this.stamp = new Uint32Array(cells);
    this.closedStamp = new Uint32Array(cells);
    this.heapNode = new Int32Array(4096);
    this.heapKey = new Float64Array(4096);
  }

  /** Start a search from (sx, sz) to (tx, tz); the target must lie inside the box. */
  begin(map: TileMap, sx: number, sz: number, tx: number, tz: number): void {
    this.gen = (this.gen + 1) >>> 0;
    if (this.gen === 0) {
      this.stamp.fill(0);
      this.closedStamp.fill(0);
      this.gen = 1;
    }
    this.map = map;
    this.bx = sx - this.bound;
    this.bz = sz - this.bound;
    this.tx = tx;
    this.tz = tz;
    this.heapSize = 0;
    this.expanded = 0;
    const lx = tx - this.bx;
    const lz = tz - this.bz;
    this.goal = lx >= 0 && lz >= 0 && lx < this.side && lz < this.side ? lz * this.side + lx : -1;
    const start = this.bound * this.side + this.bound;
    this.g[start] = 0;
    this.parent[start] = -1;
    this.stamp[start] = this.gen;
    this.push(start, this.key(0, sx, sz));
  }

  private key(g: number, x: number, z: number): number {
    const dx = Math.abs(x - this.tx);
    const dz = Math.abs(z - this.tz);
    const h =
      dx > dz ? STRAIGHT * dx + (DIAGONAL - STRAIGHT) * dz : STRAIGHT * dz + (DIAGONAL - STRAIGHT) * dx;
    return (g + h) * 65536 + h;
  }

  private walkable(x: number, z: number): boolean {
    const lx = x - this.bx;
    const lz = z - this.bz;
    if (lx < 0 || lz < 0 || lx >= this.side || lz >= this.side) return false;
    return (this.map as TileMap).isWalkable(x, z);
  }

  /** Expand up to `budget` nodes. */
  run(budget: number): SearchStatus {
    if (this.goal < 0) return 'unreachable';
    const side = this.side;
    let spent = 0;
    while (this.heapSize > 0) {
      if (spent >= budget) return 'more';
      const node = this.pop();
      if (this.closedStamp[node] === this.gen) continue;
      this.closedStamp[node] = this.gen;
      spent++;
      this.expanded++;
      if (node === this.goal) return 'found';
      const lx = node % side;
      const lz = (node - lx) / side;
      const x = lx + this.bx;
      const z = lz + this.bz;
      const g0 = this.g[node] as number;
      for (let d = 0; d < 8; d++) {
        const dx = DX[d] as number;
        const dz = DZ[d] as number;
        const nx = x + dx;
        const nz = z + dz;
        if (!this.walkable(nx, nz)) continue;
        if (d >= 4 && (!this.walkable(x + dx, z) || !this.walkable(x, z + dz))) continue;
        const n = node + dz * side + dx;
        if (this.closedStamp[n] === this.gen) continue;
        const g = g0 + (d >= 4 ? DIAGONAL : STRAIGHT);
        if (this.stamp[n] === this.gen && (this.g[n] as number) <= g) continue;
        this.stamp[n] = this.gen;
        this.g[n] = g;
        this.parent[n] = node;
        this.push(n, this.key(g, nx, nz));
      }
    }
    return 'unreachable';
  }

  /** The found path as packed tiles [x1, z1, ..., xn, zn], start excluded, target included. */
  path(): Int32Array {
    const side = this.side;
    let n = 0;
    for (let node = this.goal; this.parent[node] !== -1; node = this.parent[node] as number) n++;
    const out = new Int32Array(n * 2);
    let i = n - 1;
    for (let node = this.goal; this.parent[node] !== -1; node = this.parent[node] as number) {
      const lx = node % side;
      out[i * 2] = lx + this.bx;
      out[i * 2 + 1] = (node - lx) / side + this.bz;
      i--;
    }
    return out;
  }

  private push(node: number, key: number): void {
    if (this.heapSize === this.heapNode.length) {
      const nodes = new Int32Array(this.heapNode.length * 2);
      nodes.set(this.heapNode);
      const keys = new Float64Array(this.heapKey.length * 2);
      keys.set(this.heapKey);
      this.heapNode = nodes;
      this.heapKey = keys;
    }
    const hn = this.heapNode;
    const hk = this.heapKey;
    let i = this.heapSize++;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if ((hk[p] as number) <= key) break;
      hn[i] = hn[p] as number;
      hk[i] = hk[p] as number;
      i = p;
    }
    hn[i] = node;
    hk[i] = key;
  }

  private pop(): number {
    const hn = this.heapNode;
    const hk = this.heapKey;
    const top = hn[0] as number;
    const size = --this.heapSize;
    if (size === 0) return top;
    const node = hn[size] as number;
    const key = hk[size] as number;
    let i = 0;
    for (;;) {
      let c = i * 2 + 1;
      if (c >= size) break;
      if (c + 1 < size && (hk[c + 1] as number) < (hk[c] as number)) c++;
      if ((hk[c] as number) >= key) break;
      hn[i] = hn[c] as number;
      hk[i] = hk[c] as number;
      i = c;
    }
    hn[i] = node;
    hk[i] = key;
    return top;
  }
}
