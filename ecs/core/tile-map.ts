/**
 * The walkable ground as a grid of tiles. One tile = one world unit; tile (x, z) covers [x, x+1) x [z, z+1).
 * Pure data: built by world/ from content, read by movement and pathfinding.
 */
export class TileMap {
  /** 1 = blocked. Row-major over z then x: index = (z - minZ) * width + (x - minX). */
  readonly blocked: Uint8Array;

  constructor(
    readonly minX: number,
    readonly minZ: number,
    readonly width: number,
    readonly depth: number,
    blocked?: Uint8Array,
  ) {
    if (!Number.isInteger(width) || !Number.isInteger(depth) || width <= 0 || depth <= 0) {
      throw new Error(`TileMap: bad size ${width}x${depth}`);
    }
    this.blocked = blocked ?? new Uint8Array(width * depth);
    if (this.blocked.length !== width * depth) throw new Error('TileMap: blocked array has the wrong length');
  }

  get maxX(): number {
    return this.minX + this.width - 1;
  }

  get maxZ(): number {
    return this.minZ + this.depth - 1;
  }

  inBounds(x: number, z: number): boolean {
    return x >= this.minX && z >= this.minZ && x < this.minX + this.width && z < this.minZ + this.depth;
  }

  isWalkable(x: number, z: number): boolean {
    return this.inBounds(x, z) && this.blocked[(z - this.minZ) * this.width + (x - this.minX)] === 0;
  }

  setBlocked(x: number, z: number, blocked = true): void {
    if (this.inBounds(x, z)) this.blocked[(z - this.minZ) * this.width + (x - this.minX)] = blocked ? 1 : 0;
  }
}
