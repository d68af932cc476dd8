/**
 * A uniform grid of cells over the tile map, for "who is near (x, z)" without scanning every entity:
 * view/replication, local chat, proximity checks. Each cell holds a dense array of eids; removal swaps
 * with the last element, so insert/remove/move are O(1).
 */
export class SpatialGrid {
  readonly cellSize: number;
  private readonly minX: number;
  private readonly minZ: number;
  readonly cols: number;
  readonly rows: number;
  private readonly cells: number[][];
  /** eid -> cell index (-1 when not in the grid) and its slot in that cell's array. */
  private readonly cellOf: Int32Array;
  private readonly slotOf: Int32Array;
  /**
   * Per cell, the eids that entered it (spawned or moved in) since the tick began: replication checks
   * only these in a cell whose every entity an observer already knew at its last look. Cells with
   * entries are listed in `enteredCells` so that clearing costs what the tick moved.
   */
  private readonly entered: number[][];
  private readonly enteredCells: number[] = [];
  /** Entries ever made, clears ever made, and the entries made when last cleared: a reader that saw
   *  `inserts` at its last look knows from these whether the lists still hold everything since. */
  inserts = 0;
  clears = 0;
  insertsAtClear = 0;

  constructor(minX: number, minZ: number, width: number, depth: number, capacity: number, cellSize = 8) {
    this.cellSize = cellSize;
    this.minX = minX;
    this.minZ = minZ;
    this.cols = Math.max(1, Math.ceil(width / cellSize));
    this.rows = Math.max(1, Math.ceil(depth / cellSize));
    this.cells = Array.from({ length: this.cols * this.rows }, () => []);
    this.entered = Array.from({ length: this.cols * this.rows }, () => []);
    this.cellOf = new Int32Array(capacity).fill(-1);
    this.slotOf = new Int32Array(capacity);
  }

  cellIndex(x: number, z: number): number {
    const cx = Math.min(this.cols - 1, Math.max(0, Math.floor((x - this.minX) / this.cellSize)));
    const cz = Math.min(this.rows - 1, Math.max(0, Math.floor((z - this.minZ) / this.cellSize)));
    return cz * this.cols + cx;
  }

  insert(eid: number, x: number, z: number): void {
    if (this.cellOf[eid] !== -1) this.remove(eid);
    const ci = this.cellIndex(x, z);
    const cell = this.cells[ci] as number[];
    this.cellOf[eid] = ci;
    this.slotOf[eid] = cell.length;
    cell.push(eid);
    this.inserts++;
    const entered = this.entered[ci] as number[];
    if (entered.length === 0) this.enteredCells.push(ci);
    entered.push(eid);
  }

  /** The eids that entered cell `index` this tick (some may have left again). Read-only view. */
  enteredThisTick(index: number): readonly number[] {
    return this.entered[index] as number[];
  }

  /** Start of a tick: forget who entered which cell (entities spawn and move only inside a tick). */
  clearEntered(): void {
    for (const ci of this.enteredCells) (this.entered[ci] as number[]).length = 0;
    this.enteredCells.length = 0;
    this.clears++;
    this.insertsAtClear = this.inserts;
  }

  remove(eid: number): void {
    const ci = this.cellOf[eid] as number;
    if (ci === -1) return;
    const cell = this.cells[ci] as number[];
    const slot = this.slotOf[eid] as number;
    const last = cell.pop() as number;
    if (last !== eid) {
      cell[slot] = last;
      this.slotOf[last] = slot;
    }
    this.cellOf[eid] = -1;
  }

  /** Call after an entity's tile changed; cheap when it stays in the same cell. */
  move(eid: number, x: number, z: number): void {
    const ci = this.cellIndex(x, z);
    if (this.cellOf[eid] !== ci) this.insert(eid, x, z);
  }

  has(eid: number): boolean {
    return this.cellOf[eid] !== -1;
  }

  /** The index of the cell holding eid, -1 when it is not in the grid. */
  cellOfEntity(eid: number): number {
    return this.cellOf[eid] as number;
  }

  /** The eids in cell `index` (row-major: row * cols + col). Read-only view, valid until the next change. */
  cell(index: number): readonly number[] {
    return this.cells[index] as number[];
  }

  /** Column (or row) of the cell holding tile coordinate x (or z), clamped to the grid. */
  colOf(x: number): number {
    return Math.min(this.cols - 1, Math.max(0, Math.floor((x - this.minX) / this.cellSize)));
  }

  rowOf(z: number): number {
    return Math.min(this.rows - 1, Math.max(0, Math.floor((z - this.minZ) / this.cellSize)));
  }

  /** Tile coordinate where column `col` (or row) starts. */
  colStart(col: number): number {
    return this.minX + col * this.cellSize;
  }

  rowStart(row: number): number {
    return this.minZ + row * this.cellSize;
  }

  /**
   * Calls `visit` for every eid in cells overlapping the square [x-r, x+r] x [z-r, z+r]. Callers filter
   * by exact distance: cells are coarser than the square.
   */
  forEachInSquare(x: number, z: number, r: number, visit: (eid: number) => void): void {
    const c0 = Math.max(0, Math.floor((x - r - this.minX) / this.cellSize));
    const c1 = Math.min(this.cols - 1, Math.floor((x + r - this.minX) / this.cellSize));
    const r0 = Math.max(0, Math.floor((z - r - this.minZ) / this.cellSize));
    const r1 = Math.min(this.rows - 1, Math.floor((z + r - this.minZ) / this.cellSize));
    for (let row = r0; row <= r1; row++) {
      for (let col = c0; col <= c1; col++) {
        const cell = this.cells[row * this.cols + col] as number[];
        for (let i = 0; i < cell.length; i++) visit(cell[i] as number);
      }
    }
  }
}
