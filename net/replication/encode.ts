import { Packr } from 'msgpackr';
import type { GameWorld } from '../../ecs/core/world.ts';
import type { Encoding } from '../protocol/codec.ts';
import { changedEntity, fullEntity, REPLICATED_BITS, type WireEntity } from './entity-fields.ts';
import {
  arrayHeaderLength,
  ByteArena,
  type ChunkSource,
  type FrameSegments,
  type PackRecord,
  packFlat,
  packStrings,
  writeArrayHeader,
} from './msgpack-entity.ts';
import type { ObserverDelta } from './observer.ts';

/**
 * Encodes world:update frames without re-encoding the same thing for every observer: each entity's entry
 * (full or changed) is built and encoded at most once per tick and encoding; the changed entities of a
 * grid cell are encoded once as a run shared by every observer that sees the whole cell, and all of a
 * cell's entities as full entries once as a run shared by every observer that sees the cell at once for
 * the first time (a newcomer to a crowd); and observers
 * whose update is only such runs share the whole frame. A frame is those pieces concatenated behind a
 * hand-written header: an ordinary self-describing frame (stock msgpackr unpack / JSON.parse give
 * `["world:update", {...}]`).
 */

// Same options as net/protocol/codec.ts: plain maps, no records, no shared state between frames.
const packr = new Packr({ useRecords: false, moreTypes: false });
const MP_REMOVED_KEY = packr.pack('removed');
const MP_EMPTY_ARRAY = Uint8Array.of(0x90);

interface Fragment {
  entity: WireEntity;
  mp?: Uint8Array;
  /** Where mp lies in the arena. */
  mpChunk?: number;
  mpOffset?: number;
  json?: string;
}

interface CellRun {
  entities: WireEntity[];
  frags: Fragment[];
  mp?: Uint8Array;
  mpChunk?: number;
  mpOffset?: number;
  /** The run's entities, in order (frags[i] is eids[i]'s). */
  eids: number[];
  /** Comma-joined JSON of the entities (no brackets). */
  json?: string;
}

export interface WorldUpdatePayload {
  tick: number;
  entities: WireEntity[];
  removed: string[];
}

export class FragmentCache {
  private tick = -1;
  private readonly full = new Map<number, Fragment>();
  private readonly delta = new Map<number, Fragment>();
  private readonly runs = new Map<number, CellRun>();
  /** Runs of full entries of whole cells (ObserverDelta.enteredCells). */
  private readonly wholeRuns = new Map<number, CellRun>();
  private readonly frames = new Map<string, Uint8Array | string>();
  /** Keys of shareable frames met once this tick (encoded transient, not kept). */
  private readonly seenOnce = new Set<string>();
  private mpHead: Uint8Array | null = null;
  private readonly pieces: Uint8Array[] = [];
  private scratchFrame = new Uint8Array(64 * 1024);
  /** This tick's entries, runs and removed lists (views into reused chunks; reset every tick). */
  private arena = new ByteArena();
  /** The frame encodeForBatch() last described as segments of the arena (reused). */
  private readonly segments: FrameSegments = {
    count: 0,
    bytes: 0,
    chunk: new Uint32Array(256),
    start: new Uint32Array(256),
    end: new Uint32Array(256),
  };

  /** Changed entries by eid, valid where deltaStamp[eid] is tick + 1: their arena chunk, offset, length. */
  private readonly deltaStamp: Uint32Array;
  private readonly deltaChunk: Uint32Array;
  private readonly deltaOffset: Uint32Array;
  private readonly deltaLength: Uint32Array;
  /**
   * Full entries likewise, valid where fullStamp[eid] is tick + 1: in an arrival storm every new player
   * is sent the whole crowd at the spawn, thousands of entries each, a Map lookup apiece.
   */
  private readonly fullStamp: Uint32Array;
  private readonly fullChunk: Uint32Array;
  private readonly fullOffset: Uint32Array;
  private readonly fullLength: Uint32Array;

  constructor(private readonly world: GameWorld) {
    this.deltaStamp = new Uint32Array(world.capacity);
    this.deltaChunk = new Uint32Array(world.capacity);
    this.deltaOffset = new Uint32Array(world.capacity);
    this.deltaLength = new Uint32Array(world.capacity);
    this.fullStamp = new Uint32Array(world.capacity);
    this.fullChunk = new Uint32Array(world.capacity);
    this.fullOffset = new Uint32Array(world.capacity);
    this.fullLength = new Uint32Array(world.capacity);
  }

  private sync(): void {
    if (this.tick === this.world.tick) return;
    this.tick = this.world.tick;
    this.full.clear();
    this.delta.clear();
    this.runs.clear();
    this.wholeRuns.clear();
    this.frames.clear();
    this.seenOnce.clear();
    this.mpHead = null;
    this.arena.reset();
  }

  private fragment(eid: number, entered: boolean): Fragment {
    const map = entered ? this.full : this.delta;
    let f = map.get(eid);
    if (f === undefined) {
      f = { entity: entered ? fullEntity(this.world, eid) : changedEntity(this.world, eid) };
      map.set(eid, f);
    }
    return f;
  }

  /**
   * The changed entities of one grid cell, in cell order (what observe() replaced by the cell index);
   * whole: all its entities as full entries (a cell that entered view at once).
   */
  private run(ci: number, whole: boolean): CellRun {
    const runs = whole ? this.wholeRuns : this.runs;
    let r = runs.get(ci);
    if (r === undefined) {
      const dirty = this.world.c.Replicated.dirty;
      const cell = this.world.grid.cell(ci);
      r = { entities: [], frags: [], eids: [] };
      for (let i = 0; i < cell.length; i++) {
        const eid = cell[i] as number;
        if (!whole && ((dirty[eid] as number) & REPLICATED_BITS) === 0) continue;
        const f = this.fragment(eid, whole);
        r.frags.push(f);
        r.entities.push(f.entity);
        r.eids.push(eid);
      }
      runs.set(ci, r);
    }
    return r;
  }

  /**
   * Encode into shared memory from now on (the network thread's chunks): encodeForBatch() then hands
   * out unshared frames as segments of it instead of copying them together here.
   */
  shareArena(source: ChunkSource): void {
    this.arena.reset();
    this.arena = new ByteArena(source);
    this.tick = -1;
    // Stamps name offsets in the old arena: none may match a tick of the new one.
    this.deltaStamp.fill(0);
    this.fullStamp.fill(0);
  }

  /** The payload as an object (tests, and deliveries without a pre-encoded path). */
  payload(d: ObserverDelta): WorldUpdatePayload {
    this.sync();
    const entities: WireEntity[] = [];
    for (const eid of d.entered) entities.push(this.fragment(eid, true).entity);
    for (const ci of d.enteredCells) for (const e of this.run(ci, true).entities) entities.push(e);
    for (const eid of d.changed) entities.push(this.fragment(eid, false).entity);
    for (const ci of d.changedCells) for (const e of this.run(ci, false).entities) entities.push(e);
    return { tick: this.world.tick, entities, removed: d.removed };
  }

  encode(d: ObserverDelta, encoding: Encoding): Uint8Array | string {
    this.sync();
    // Only shared runs of changes: the same cells give the same frame.
    const shareable = onlyChangedRuns(d);
    const key = shareable ? `${encoding}:${d.changedCells.join(',')}` : '';
    if (shareable) {
      const hit = this.frames.get(key);
      if (hit !== undefined) return hit;
    }
    const frame = encoding === 'json' ? this.encodeJson(d) : this.encodeMsgpack(d, false);
    if (shareable) this.frames.set(key, frame);
    return frame;
  }

  /**
   * Like encode(), but a msgpack frame no other observer shares is written into a scratch buffer that
   * the next call overwrites: for a sink that copies the bytes before returning (uWS send). In a crowd
   * every frame is tens of KB; allocating one per observer per tick made the collector the bottleneck.
   */
  encodeTransient(d: ObserverDelta, encoding: Encoding): Uint8Array | string {
    if (encoding === 'json') return this.encode(d, encoding);
    this.sync();
    return this.keptFrame(d, encoding) ?? this.encodeMsgpack(d, true);
  }

  /**
   * A msgpack frame made only of shared runs, when another observer has the same cells: spread-out
   * observers rarely do, so a frame of its own is kept only from the second observer with these cells
   * on (a kept frame per observer per tick was most of the collector's work with 2,000 players spread
   * out). Undefined: the caller encodes a transient one.
   */
  private keptFrame(d: ObserverDelta, encoding: Encoding): Uint8Array | undefined {
    if (!onlyChangedRuns(d)) return undefined;
    const key = `${encoding}:${d.changedCells.join(',')}`;
    const hit = this.frames.get(key);
    if (hit !== undefined) return hit as Uint8Array;
    if (this.seenOnce.has(key)) {
      const frame = this.encodeMsgpack(d, false);
      this.frames.set(key, frame);
      return frame;
    }
    this.seenOnce.add(key);
    return undefined;
  }

  /**
   * Like encodeTransient(), for the network thread's frame batch: with a shared arena (shareArena) a
   * msgpack frame no other observer shares comes back as the segments of the arena it is made of, in
   * order, and the network thread joins them; the main thread copies nothing. A crowd's frames are
   * tens of KB each, ~90 MB a tick for 2,000 players; assembling and copying them was half the tick.
   * The segment list is reused by the next call.
   */
  encodeForBatch(d: ObserverDelta, encoding: Encoding): Uint8Array | string | FrameSegments {
    if (encoding === 'json' || !this.arena.shared) return this.encodeTransient(d, encoding);
    this.sync();
    return this.keptFrame(d, encoding) ?? this.segmentsOf(d);
  }

  private segmentsOf(d: ObserverDelta): FrameSegments {
    const segs = this.segments;
    segs.count = 0;
    segs.bytes = 0;
    const head = this.head();
    let n = d.entered.length + d.changed.length;
    for (const ci of d.enteredCells) n += this.mpRun(ci, true).frags.length;
    for (const ci of d.changedCells) n += this.mpRun(ci, false).frags.length;
    // The head and this frame's entity count, in the arena like everything else.
    const start = this.arena.alloc(head.length + arrayHeaderLength(n));
    start.set(head, 0);
    writeArrayHeader(start, head.length, n);
    this.addSegment(this.arena.lastChunk, this.arena.lastOffset, start.length);
    // Entries by eid from typed arrays (hundreds per observer in a crowd, thousands for a newcomer to
    // one: no lookups).
    const stamp = this.tick + 1;
    const { fullStamp, fullChunk, fullOffset, fullLength } = this;
    for (const eid of d.entered) {
      if (fullStamp[eid] !== stamp) this.stampFull(eid, this.mpEntry(eid, true));
      this.addSegment(fullChunk[eid] as number, fullOffset[eid] as number, fullLength[eid] as number);
    }
    for (const ci of d.enteredCells) this.addRun(this.mpRun(ci, true));
    const { deltaStamp, deltaChunk, deltaOffset, deltaLength } = this;
    for (const eid of d.changed) {
      if (deltaStamp[eid] !== stamp) this.mpChanged(eid);
      this.addSegment(deltaChunk[eid] as number, deltaOffset[eid] as number, deltaLength[eid] as number);
    }
    for (const ci of d.changedCells) this.addRun(this.mpRun(ci, false));
    // "removed" and its list, back to back (packStrings allocates right after the key).
    const key = this.arena.copy(MP_REMOVED_KEY);
    this.addSegment(this.arena.lastChunk, this.arena.lastOffset, key.length);
    const removed =
      d.removed.length === 0 ? this.arena.copy(MP_EMPTY_ARRAY) : packStrings(d.removed, this.arena);
    this.addSegment(this.arena.lastChunk, this.arena.lastOffset, removed.length);
    return segs;
  }

  private addRun(r: CellRun): void {
    this.addSegment(r.mpChunk as number, r.mpOffset as number, (r.mp as Uint8Array).length);
  }

  /** Appends arena bytes to the segment list, extending the last segment when they follow it. */
  private addSegment(chunk: number, offset: number, length: number): void {
    const segs = this.segments;
    segs.bytes += length;
    const last = segs.count - 1;
    if (last >= 0 && segs.chunk[last] === chunk && segs.end[last] === offset) {
      segs.end[last] = offset + length;
      return;
    }
    if (segs.count === segs.chunk.length) {
      const grow = (a: Uint32Array) => {
        const b = new Uint32Array(a.length * 2);
        b.set(a);
        return b;
      };
      segs.chunk = grow(segs.chunk);
      segs.start = grow(segs.start);
      segs.end = grow(segs.end);
    }
    segs.chunk[segs.count] = chunk;
    segs.start[segs.count] = offset;
    segs.end[segs.count] = offset + length;
    segs.count++;
  }

  private encodeJson(d: ObserverDelta): string {
    const parts: string[] = [];
    for (const eid of d.entered) {
      const f = this.fragment(eid, true);
      f.json ??= JSON.stringify(f.entity);
      parts.push(f.json);
    }
    for (const ci of d.enteredCells) parts.push(this.jsonRun(ci, true));
    for (const eid of d.changed) {
      const f = this.fragment(eid, false);
      f.json ??= JSON.stringify(f.entity);
      parts.push(f.json);
    }
    for (const ci of d.changedCells) parts.push(this.jsonRun(ci, false));
    return `["world:update",{"tick":${this.world.tick},"entities":[${parts.join(',')}],"removed":${JSON.stringify(d.removed)}}]`;
  }

  private jsonRun(ci: number, whole: boolean): string {
    const r = this.run(ci, whole);
    r.json ??= r.entities.map((e) => JSON.stringify(e)).join(',');
    return r.json;
  }

  /** The entity's encoded entry (built and encoded once per tick). */
  private mpEntry(eid: number, entered: boolean): Fragment {
    const f = this.fragment(eid, entered);
    if (f.mp === undefined) this.pack(f);
    return f;
  }

  /**
   * A changed entity's entry, as a view into its cell's run: an observer that lists a cell's changes
   * one by one (the cell is cut by its view edge, or holds someone it does not know yet) then names
   * long stretches of the run rather than an entry at a time.
   */
  private mpChanged(eid: number): Fragment {
    const f = this.fragment(eid, false);
    if (f.mp === undefined) {
      const ci = this.world.grid.cellOfEntity(eid);
      if (ci >= 0) this.mpRun(ci, false);
      if (f.mp === undefined) this.pack(f);
    }
    if (this.deltaStamp[eid] !== this.tick + 1) this.stampDelta(eid, f);
    return f;
  }

  private stampFull(eid: number, f: Fragment): void {
    this.fullStamp[eid] = this.tick + 1;
    this.fullChunk[eid] = f.mpChunk as number;
    this.fullOffset[eid] = f.mpOffset as number;
    this.fullLength[eid] = (f.mp as Uint8Array).length;
  }

  private stampDelta(eid: number, f: Fragment): void {
    this.deltaStamp[eid] = this.tick + 1;
    this.deltaChunk[eid] = f.mpChunk as number;
    this.deltaOffset[eid] = f.mpOffset as number;
    this.deltaLength[eid] = (f.mp as Uint8Array).length;
  }

  /**
   * The cell's changed entities (whole: all its entities, full entries) encoded back to back, once per
   * tick; their entries become views of it.
   */
  private mpRun(ci: number, whole: boolean): CellRun {
    const r = this.run(ci, whole);
    if (r.mp === undefined) {
      let size = 0;
      for (const f of r.frags) {
        if (f.mp === undefined) this.pack(f);
        size += (f.mp as Uint8Array).length;
      }
      const mp = this.arena.alloc(size);
      const chunk = this.arena.lastChunk;
      const base = this.arena.lastOffset;
      let at = 0;
      for (let i = 0; i < r.frags.length; i++) {
        const f = r.frags[i] as Fragment;
        const entry = f.mp as Uint8Array;
        mp.set(entry, at);
        f.mp = mp.subarray(at, at + entry.length);
        f.mpChunk = chunk;
        f.mpOffset = base + at;
        if (whole) this.stampFull(r.eids[i] as number, f);
        else this.stampDelta(r.eids[i] as number, f);
        at += entry.length;
      }
      r.mp = mp;
      r.mpChunk = chunk;
      r.mpOffset = base;
    }
    return r;
  }

  private pack(f: Fragment): void {
    f.mp = packFlat(f.entity as PackRecord, this.arena);
    f.mpChunk = this.arena.lastChunk;
    f.mpOffset = this.arena.lastOffset;
  }

  /** fixarray(2), "world:update", fixmap(3), "tick", <tick>, "entities" (once per tick). */
  private head(): Uint8Array {
    if (this.mpHead === null) {
      this.mpHead = Buffer.concat([
        Uint8Array.of(0x92),
        packr.pack('world:update'),
        Uint8Array.of(0x83),
        packr.pack('tick'),
        packr.pack(this.world.tick),
        packr.pack('entities'),
      ]);
    }
    return this.mpHead;
  }

  private encodeMsgpack(d: ObserverDelta, transient: boolean): Uint8Array {
    const head = this.head();
    // Pass 1: the encoded pieces (reused list, no closures: this runs once per observer per tick).
    const pieces = this.pieces;
    pieces.length = 0;
    let n = d.entered.length + d.changed.length;
    let size = 0;
    for (const eid of d.entered) pieces.push(this.mpEntry(eid, true).mp as Uint8Array);
    for (const ci of d.enteredCells) {
      const r = this.mpRun(ci, true);
      pieces.push(r.mp as Uint8Array);
      n += r.frags.length;
    }
    for (const eid of d.changed) pieces.push(this.mpEntry(eid, false).mp as Uint8Array);
    for (const ci of d.changedCells) {
      const r = this.mpRun(ci, false);
      pieces.push(r.mp as Uint8Array);
      n += r.frags.length;
    }
    for (const p of pieces) size += p.length;
    const removed = d.removed.length === 0 ? MP_EMPTY_ARRAY : packStrings(d.removed, this.arena);
    // Pass 2: one buffer, written in order.
    const total = head.length + arrayHeaderLength(n) + size + MP_REMOVED_KEY.length + removed.length;
    let out: Uint8Array;
    if (transient) {
      if (this.scratchFrame.length < total)
        this.scratchFrame = new Uint8Array(Math.max(total, this.scratchFrame.length * 2));
      out = this.scratchFrame.subarray(0, total);
    } else out = Buffer.allocUnsafe(total);
    out.set(head, 0);
    let at = writeArrayHeader(out, head.length, n);
    for (const p of pieces) {
      out.set(p, at);
      at += p.length;
    }
    pieces.length = 0;
    out.set(MP_REMOVED_KEY, at);
    at += MP_REMOVED_KEY.length;
    out.set(removed, at);
    return out;
  }
}

/** A frame of shared runs of changes only: observers with the same cells get the same frame. */
function onlyChangedRuns(d: ObserverDelta): boolean {
  return d.entered.length + d.enteredCells.length + d.changed.length + d.removed.length === 0;
}
