import { Dirty, EntityType } from '../../ecs/core/components.ts';
import type { GameWorld } from '../../ecs/core/world.ts';
import { REPLICATED_BITS, visibleTo } from './entity-fields.ts';

/**
 * View membership of one player. An entity enters view at Chebyshev distance <= view distance and leaves
 * at > view distance + HYSTERESIS, so an entity pacing on the edge does not flicker in and out.
 */

export const HYSTERESIS = 2;

/** Farthest an entity moves in one tick by walking or running (4 tiles). */
const SCAN_MARGIN = 4;

// Imported bindings are getters under tsx's module transform: copy hot constants into locals once.
const ITEM = EntityType.item;
const CHANGE_BITS = REPLICATED_BITS;
const SHOWN = Dirty.shown;

export interface Observer {
  readonly characterId: string;
  readonly eid: number;
  /** Bitset over eids this player currently knows (was told about and not told removed). */
  readonly known: Uint32Array;
  knownCount: number;
  /**
   * Cells of the scan window this player knew every entity of at the end of a look: slot (row mod
   * width, col mod width) holds the cell and the look's number. At the next look such a cell, if still
   * wholly within keep range, needs checking only for the entities that entered it meanwhile: in a
   * crowd every observer otherwise tests every entity around it, every tick.
   */
  readonly allKnownCell: Int32Array;
  readonly allKnownLook: Int32Array;
  /**
   * Per slot, how many of the cell's entities were items hidden from this player at that look (someone
   * else's loot): it knew all the others. In a fight most cells hold someone's drops; without this count
   * such a cell was never known whole, and every observer walked it entity by entity every tick.
   */
  readonly allKnownHidden: Int32Array;
  readonly slotWidth: number;
}

export interface ObserverDelta {
  characterId: string;
  /** eids that entered view this tick: sent with all public fields. */
  entered: number[];
  /**
   * Grid cells whose every entity entered view at once this tick (a newcomer to a crowd): sent as the
   * cell's run of full entries, encoded once per tick and shared by every newcomer to that cell. In an
   * arrival storm each newcomer is otherwise sent the crowd at the spawn one entry at a time.
   */
  enteredCells: number[];
  /** Known eids with replicated changes this tick. */
  changed: number[];
  /**
   * Grid cells wholly in view whose every entity this player knows: all their changed entities are in
   * the update, so the encoded run of that cell is shared by every such observer.
   */
  changedCells: number[];
  /** Wire ids that left view or despawned. */
  removed: string[];
}

/** Per-tick facts shared by all observers of a world. */
export interface ViewScratch {
  tick: number;
  /** dirtyCells[cell] === tick: the cell holds an entity with replicated changes this tick. */
  dirtyCells: Uint32Array;
  /**
   * unsettled[cell] === tick: an item in the cell changed, became visible to more players or despawned
   * this tick, so an observer's count of the cell's hidden items from its last look no longer holds.
   */
  unsettled: Uint32Array;
  /** eid -> wire id of entities despawned this tick (their wireIds entry is already cleared). */
  despawned: Map<number, string>;
  /** Looks taken (one per collect); an observer's all-known cells are valid for the next look only. */
  look: number;
  /** The grid's lists of who entered each cell hold every entry since the previous look. */
  entriesComplete: boolean;
  gridInserts: number;
  gridClears: number;
  /**
   * Per cell, its entities packed side by side in `packed` from packAt[cell] (PACK ints each: eid, x, z,
   * flags), and the box they stand in, made at most once per look (when packLook[cell] is the look):
   * every observer around the cell then reads one stretch of memory instead of the position, dirty and
   * kind arrays at scattered eids, and a cell the view's edge cuts may still hold only entities within
   * keep range (a crowd fills part of a cell), and then takes the fast path.
   */
  packLook: Int32Array;
  packAt: Int32Array;
  packed: Int32Array;
  packEnd: number;
  boxMinX: Int32Array;
  boxMaxX: Int32Array;
  boxMinZ: Int32Array;
  boxMaxZ: Int32Array;
}

export function createScratch(world: GameWorld): ViewScratch {
  const cells = world.grid.cols * world.grid.rows;
  return {
    tick: -1,
    dirtyCells: new Uint32Array(cells),
    unsettled: new Uint32Array(cells),
    despawned: new Map(),
    look: 0,
    entriesComplete: false,
    gridInserts: -1,
    gridClears: -1,
    packLook: new Int32Array(cells).fill(-1),
    packAt: new Int32Array(cells),
    // An entity is in one cell and a cell is packed once a look: the world's capacity bounds the total.
    packed: new Int32Array(world.capacity * PACK),
    packEnd: 0,
    boxMinX: new Int32Array(cells),
    boxMaxX: new Int32Array(cells),
    boxMinZ: new Int32Array(cells),
    boxMaxZ: new Int32Array(cells),
  };
}

/** Prepare the scratch for this tick (once, before observing). */
export function prepareScratch(world: GameWorld, scratch: ViewScratch): void {
  scratch.tick = world.tick;
  scratch.look++;
  scratch.packEnd = 0;
  // Complete when the grid was cleared at most once since the last look, with no entry between that
  // look and the clear (entities spawn and move inside ticks, and a tick begins with the clear).
  const { grid } = world;
  scratch.entriesComplete =
    grid.clears === scratch.gridClears ||
    (grid.clears === scratch.gridClears + 1 && grid.insertsAtClear === scratch.gridInserts);
  scratch.gridInserts = grid.inserts;
  scratch.gridClears = grid.clears;
  scratch.despawned.clear();
  const { Position, Kind } = world.c;
  // A despawned entity keeps its position and kind until the next tick frees its eid.
  for (const d of world.despawned) {
    scratch.despawned.set(d.eid, d.wireId);
    if (Kind.type[d.eid] === ITEM)
      scratch.unsettled[grid.cellIndex(Position.x[d.eid] as number, Position.z[d.eid] as number)] =
        world.tick;
  }
  const dirty = world.c.Replicated.dirty;
  for (const eid of world.changed) {
    if (!grid.has(eid)) continue;
    const ci = grid.cellIndex(Position.x[eid] as number, Position.z[eid] as number);
    if (((dirty[eid] as number) & REPLICATED_BITS) !== 0) scratch.dirtyCells[ci] = world.tick;
    if (Kind.type[eid] === ITEM) scratch.unsettled[ci] = world.tick;
  }
}

export function createObserver(world: GameWorld, characterId: string, eid: number): Observer {
  // The scan window spans at most this many cells a side, so its cells never share a slot.
  const reach = world.viewDistance + HYSTERESIS + SCAN_MARGIN;
  const slotWidth = Math.floor((2 * reach) / world.grid.cellSize) + 2;
  return {
    characterId,
    eid,
    known: new Uint32Array((world.capacity + 31) >>> 5),
    knownCount: 0,
    allKnownCell: new Int32Array(slotWidth * slotWidth).fill(-1),
    allKnownLook: new Int32Array(slotWidth * slotWidth).fill(-1),
    allKnownHidden: new Int32Array(slotWidth * slotWidth),
    slotWidth,
  };
}

export function knows(obs: Observer, eid: number): boolean {
  return ((obs.known[eid >>> 5] as number) & (1 << (eid & 31))) !== 0;
}

/**
 * Drops eid from the observer's known set (module level: a closure per observe() call costs). An entity
 * that shows hits or a death this tick (it died and despawned, or woke at the spawn far away) still gets
 * its entry in `changed`, before it is removed: whoever saw it sees how it ended.
 */
function forget(
  obs: Observer,
  delta: ObserverDelta,
  dirty: Uint32Array,
  eid: number,
  wireId: string | undefined,
): void {
  obs.known[eid >>> 5] = (obs.known[eid >>> 5] as number) & ~(1 << (eid & 31));
  obs.knownCount--;
  if (wireId === undefined) return;
  if (((dirty[eid] as number) & SHOWN) !== 0) delta.changed.push(eid);
  delta.removed.push(wireId);
}

/**
 * A cut cell with fewer entities is checked one by one: its box would cost more than it saves (spread
 * out, cells hold a few entities and the box made the tick ~2 ms dearer at 2,000 players).
 */
const BOX_MIN_ENTITIES = 16;
/** Likewise, a cell's all-known slot is kept only for cells of this many entities or more. */
const STAMP_MIN_ENTITIES = 8;

/** Ints per entity in `ViewScratch.packed`: eid, x, z, flags. */
const PACK = 4;
/** Flags: the entity has replicated changes this tick; it is an item. */
const PACK_CHANGED = 1;
const PACK_ITEM = 2;

/** Where cell ci's packed entities start in `scratch.packed` (packed at the first call of a look). */
function packCell(world: GameWorld, scratch: ViewScratch, ci: number): number {
  if (scratch.packLook[ci] === scratch.look) return scratch.packAt[ci] as number;
  const { x, z } = world.c.Position;
  const type = world.c.Kind.type;
  const dirty = world.c.Replicated.dirty;
  const cell = world.grid.cell(ci);
  const packed = scratch.packed;
  const start = scratch.packEnd;
  let p = start;
  let x0 = 0x7fffffff;
  let x1 = -0x7fffffff;
  let z0 = 0x7fffffff;
  let z1 = -0x7fffffff;
  for (let i = 0; i < cell.length; i++, p += PACK) {
    const eid = cell[i] as number;
    const ex = x[eid] as number;
    const ez = z[eid] as number;
    packed[p] = eid;
    packed[p + 1] = ex;
    packed[p + 2] = ez;
    packed[p + 3] =
      (((dirty[eid] as number) & CHANGE_BITS) !== 0 ? PACK_CHANGED : 0) |
      (type[eid] === ITEM ? PACK_ITEM : 0);
    if (ex < x0) x0 = ex;
    if (ex > x1) x1 = ex;
    if (ez < z0) z0 = ez;
    if (ez > z1) z1 = ez;
  }
  scratch.packEnd = p;
  scratch.packLook[ci] = scratch.look;
  scratch.packAt[ci] = start;
  scratch.boxMinX[ci] = x0;
  scratch.boxMaxX[ci] = x1;
  scratch.boxMinZ[ci] = z0;
  scratch.boxMaxZ[ci] = z1;
  return start;
}

/** Whether every entity of cell ci stands within `range` of (px, pz). */
function boxWithin(
  world: GameWorld,
  scratch: ViewScratch,
  ci: number,
  px: number,
  pz: number,
  range: number,
) {
  packCell(world, scratch, ci);
  return (
    (scratch.boxMinX[ci] as number) >= px - range &&
    (scratch.boxMaxX[ci] as number) <= px + range &&
    (scratch.boxMinZ[ci] as number) >= pz - range &&
    (scratch.boxMaxZ[ci] as number) <= pz + range
  );
}

/** What `admit` did with an entity. */
const ENTERED = 0;
/** Beyond view distance: left unknown for now. */
const FAR = 1;
/** An item the observer may not see (someone else's loot): left unknown until it changes. */
const HIDDEN = 2;

/**
 * An entity the observer does not know yet, in a cell wholly within keep range: it enters view (known,
 * listed in `entered`) when within view distance and visible to the observer.
 */
function admit(world: GameWorld, obs: Observer, entered: number[], eid: number, px: number, pz: number) {
  const dx = (world.c.Position.x[eid] as number) - px;
  const dz = (world.c.Position.z[eid] as number) - pz;
  if (Math.max(dx < 0 ? -dx : dx, dz < 0 ? -dz : dz) > world.viewDistance) return FAR;
  if (world.c.Kind.type[eid] === ITEM && !visibleTo(world, eid, obs.characterId)) return HIDDEN;
  obs.known[eid >>> 5] = (obs.known[eid >>> 5] as number) | (1 << (eid & 31));
  obs.knownCount++;
  entered.push(eid);
  return ENTERED;
}

/**
 * Whether every entity of cell ci enters view at once: the observer knows none of them, they all stand
 * within view distance, and none is an item (an item may be hidden from it). Then they are all known
 * now, and the caller lists the cell in `enteredCells`.
 */
function enterWhole(
  world: GameWorld,
  obs: Observer,
  scratch: ViewScratch,
  ci: number,
  px: number,
  pz: number,
) {
  const known = obs.known;
  const cell = world.grid.cell(ci);
  const first = cell[0] as number;
  // Most cells an observer meets hold someone it knows: answered by one look at the first entity.
  if (((known[first >>> 5] as number) & (1 << (first & 31))) !== 0) return false;
  if (!boxWithin(world, scratch, ci, px, pz, world.viewDistance)) return false;
  const at = packCell(world, scratch, ci);
  const packed = scratch.packed;
  const end = at + cell.length * PACK;
  for (let p = at; p < end; p += PACK) {
    const eid = packed[p] as number;
    if (((known[eid >>> 5] as number) & (1 << (eid & 31))) !== 0) return false;
    if (((packed[p + 3] as number) & PACK_ITEM) !== 0) return false;
  }
  for (let p = at; p < end; p += PACK) {
    const eid = packed[p] as number;
    known[eid >>> 5] = (known[eid >>> 5] as number) | (1 << (eid & 31));
  }
  obs.knownCount += cell.length;
  return true;
}

/**
 * What one observer learns this tick; updates its known set. Walks the grid cells of view + hysteresis
 * around it, then (only if some known entity was not met) its known set for what left or despawned.
 */
export function observe(world: GameWorld, obs: Observer, scratch: ViewScratch): ObserverDelta {
  const { Position, Replicated } = world.c;
  const dirty = Replicated.dirty;
  const { grid } = world;
  const px = Position.x[obs.eid] as number;
  const pz = Position.z[obs.eid] as number;
  const view = world.viewDistance;
  const keep = view + HYSTERESIS;
  const known = obs.known;
  const me = obs.characterId;
  const entered: number[] = [];
  const enteredCells: number[] = [];
  const changed: number[] = [];
  const changedCells: number[] = [];
  const removed: string[] = [];
  const delta: ObserverDelta = { characterId: me, entered, enteredCells, changed, changedCells, removed };
  // Known entities met and kept this tick; when fewer than known remain, the known set is swept.
  let kept = 0;
  // The scan reaches SCAN_MARGIN beyond the keep distance so that whatever walked or ran out of view
  // is met (and removed) here; only teleports need the sweep.
  const reach = keep + SCAN_MARGIN;
  const { allKnownCell, allKnownLook, allKnownHidden, slotWidth } = obs;
  const packed = scratch.packed;
  const look = scratch.look;
  // -2 matches no slot: without complete entry lists nothing known at the last look can be trusted.
  const prevLook = scratch.entriesComplete ? look - 1 : -2;
  const last = grid.cellSize - 1;
  const c0 = grid.colOf(px - reach);
  const c1 = grid.colOf(px + reach);
  const r1 = grid.rowOf(pz + reach);
  for (let row = grid.rowOf(pz - reach); row <= r1; row++) {
    const z0 = grid.rowStart(row);
    // Pure cells may reach into the hysteresis band: all their entities are known and stay known there.
    // A cell whose bounds the band cuts takes the same path when all its entities stand within it.
    const rowInside = z0 >= pz - keep && z0 + last <= pz + keep;
    for (let col = c0; col <= c1; col++) {
      const ci = row * grid.cols + col;
      const cell = grid.cell(ci);
      const n = cell.length;
      if (n === 0) continue;
      const x0 = grid.colStart(col);
      if (
        (rowInside && x0 >= px - keep && x0 + last <= px + keep) ||
        (n >= BOX_MIN_ENTITIES && boxWithin(world, scratch, ci, px, pz, keep))
      ) {
        const slot = n >= STAMP_MIN_ENTITIES ? (row % slotWidth) * slotWidth + (col % slotWidth) : -1;
        // Set when a newcomer to it among those that entered has a change: the fast path would fail too.
        let changedNewcomer = false;
        if (
          slot >= 0 &&
          allKnownLook[slot] === prevLook &&
          allKnownCell[slot] === ci &&
          (allKnownHidden[slot] === 0 || scratch.unsettled[ci] !== scratch.tick)
        ) {
          // It knew every entity here at its last look but the hidden items counted then (unchanged
          // since: no item of the cell changed or despawned): what it does not know yet entered since. In
          // an arrival storm (a crowd on the spawn, new players every tick) this costs the arrivals, not
          // the crowd, for every observer.
          const came = grid.enteredThisTick(ci);
          let pure = true;
          for (let i = 0; i < came.length; i++) {
            const eid = came[i] as number;
            if (((known[eid >>> 5] as number) & (1 << (eid & 31))) !== 0) continue;
            if (grid.cellOfEntity(eid) !== ci) continue;
            if (((dirty[eid] as number) & CHANGE_BITS) !== 0) {
              pure = false;
              break;
            }
          }
          if (pure) {
            // Members it leaves unknown: beyond view (missed), someone else's loot (hidden). One that
            // entered the cell twice counts twice: kept is then too low, which costs a sweep, never a
            // missed removal.
            let missed = 0;
            let hidden = allKnownHidden[slot] as number;
            for (let i = 0; i < came.length; i++) {
              const eid = came[i] as number;
              if (((known[eid >>> 5] as number) & (1 << (eid & 31))) !== 0 || grid.cellOfEntity(eid) !== ci)
                continue;
              const got = admit(world, obs, entered, eid, px, pz);
              if (got === FAR) missed++;
              else if (got === HIDDEN) hidden++;
            }
            kept += n - missed - hidden;
            if (missed === 0) {
              allKnownLook[slot] = look;
              allKnownHidden[slot] = hidden;
            }
            if (scratch.dirtyCells[ci] === scratch.tick) changedCells.push(ci);
            continue;
          }
          changedNewcomer = true;
        } else if (slot >= 0 && enterWhole(world, obs, scratch, ci, px, pz)) {
          kept += n;
          enteredCells.push(ci);
          allKnownCell[slot] = ci;
          allKnownLook[slot] = look;
          allKnownHidden[slot] = 0;
          continue;
        }
        // Wholly within keep range. Fast path: no entity it does not know yet has a change this tick
        // (none is in the cell's run), so the cell's changed entities go as one shared run, and none it
        // knows can leave (all are within keep). What it does not know yet (a player who just arrived,
        // an NPC back at its spawn, loot just dropped: nothing that moved or changed) enters one by one
        // when within view and visible to it. A known item stays visible until it despawns (an item only
        // ever goes from its owner's to everyone's). Arrivals, respawns and someone else's loot in a
        // crowd no longer send every observer through the cell entity by entity.
        let pure = !changedNewcomer;
        let unknown = 0;
        for (
          let p = pure ? packCell(world, scratch, ci) : 0, end = p + n * PACK;
          pure && p < end;
          p += PACK
        ) {
          const eid = packed[p] as number;
          if (((known[eid >>> 5] as number) & (1 << (eid & 31))) !== 0) continue;
          if (((packed[p + 3] as number) & PACK_CHANGED) !== 0) {
            pure = false;
            break;
          }
          unknown++;
        }
        if (pure) {
          kept += n - unknown;
          let far = 0;
          let hidden = 0;
          for (let i = 0; unknown > 0 && i < n; i++) {
            const eid = cell[i] as number;
            if (((known[eid >>> 5] as number) & (1 << (eid & 31))) !== 0) continue;
            unknown--;
            const got = admit(world, obs, entered, eid, px, pz);
            if (got === ENTERED) kept++;
            else if (got === FAR) far++;
            else hidden++;
          }
          if (slot >= 0 && far === 0) {
            allKnownCell[slot] = ci;
            allKnownLook[slot] = look;
            allKnownHidden[slot] = hidden;
          }
          if (scratch.dirtyCells[ci] === scratch.tick) changedCells.push(ci);
          continue;
        }
      }
      for (let p = packCell(world, scratch, ci), end = p + n * PACK; p < end; p += PACK) {
        const eid = packed[p] as number;
        const dx = (packed[p + 1] as number) - px;
        const dz = (packed[p + 2] as number) - pz;
        const d = Math.max(dx < 0 ? -dx : dx, dz < 0 ? -dz : dz);
        const word = eid >>> 5;
        const bit = 1 << (eid & 31);
        const isKnown = ((known[word] as number) & bit) !== 0;
        if (isKnown) {
          // A known item stays visible until it despawns (as on the fast path): no ownership lookup for
          // the drops around every observer of a fight, every tick.
          if (d > keep) {
            forget(obs, delta, dirty, eid, world.wireIds[eid]);
            continue;
          }
          kept++;
          if (((packed[p + 3] as number) & PACK_CHANGED) !== 0) changed.push(eid);
        } else if (
          d <= view &&
          (((packed[p + 3] as number) & PACK_ITEM) === 0 || visibleTo(world, eid, me))
        ) {
          kept++;
          known[word] = (known[word] as number) | bit;
          obs.knownCount++;
          entered.push(eid);
        }
      }
    }
  }
  for (const [eid, wireId] of scratch.despawned) {
    if (((known[eid >>> 5] as number) & (1 << (eid & 31))) !== 0) forget(obs, delta, dirty, eid, wireId);
  }
  if (obs.knownCount > kept) {
    // Something known was not met: it jumped far away (teleport, respawn) since last tick.
    for (let w = 0; w < known.length; w++) {
      let bits = known[w] as number;
      while (bits !== 0) {
        const low = bits & -bits;
        const eid = (w << 5) | (31 - Math.clz32(low));
        bits ^= low;
        const dx = (Position.x[eid] as number) - px;
        const dz = (Position.z[eid] as number) - pz;
        if (Math.max(dx < 0 ? -dx : dx, dz < 0 ? -dz : dz) > reach)
          forget(obs, delta, dirty, eid, world.wireIds[eid]);
      }
    }
  }
  return delta;
}
