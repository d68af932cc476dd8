import type { ChunkSource, FrameSegments } from '../replication/msgpack-entity.ts';
import type { FrameBatch } from './messages.ts';

/**
 * Collects outgoing frames of many connections for one message to the network thread. Frames live in
 * fixed-size chunks of shared memory: small ones are copied in at once (callers may reuse their
 * buffers), and a frame already encoded in shared chunks (a world:update assembled from the tick's
 * entries, net/replication) is queued as the list of stretches it is made of, joined on the network
 * thread. Each chunk crosses to the network thread once; batches name chunks by index, and the network
 * thread hands the indices back once written. A 2,000-player crowd sends ~90 MB a tick: assembling and
 * copying that here was half the tick, transferred buffers came back as new external memory every
 * tick (a full collection every tick), and fresh buffers cost a page fault per 4 KiB. A frame object
 * queued again in the same batch (one chat line to 2,000 hearers) is stored once.
 */

export const CHUNK_BYTES = 4 * 1024 * 1024;
const MAX_SPARE_CHUNKS = 64;

class Grow<T extends Int32Array | Uint32Array | Uint8Array> {
  n = 0;
  constructor(public a: T) {}
  push(v: number): void {
    if (this.n === this.a.length) {
      const bigger = new (this.a.constructor as new (n: number) => T)(this.a.length * 2);
      bigger.set(this.a);
      this.a = bigger;
    }
    this.a[this.n++] = v;
  }
  take(): T {
    const out = this.a.slice(0, this.n) as T;
    this.n = 0;
    return out;
  }
}

export type QueuedFrame = Uint8Array | string | FrameSegments;

export class FrameBatchWriter implements ChunkSource {
  /** Every chunk the network thread knows (or is about to), by index. */
  private readonly pool = new Map<number, Uint8Array>();
  private nextIndex = 0;
  /** Indices of chunks nobody holds, ready to be filled or lent again. */
  private readonly free: number[] = [];
  /**
   * Holders of each chunk in use: each batch naming it (until written and handed back), and the
   * borrower of a lent chunk (until it gives it back). A chunk is reused only when none is left.
   */
  private readonly holds = new Map<number, number>();
  /** This batch: chunks new to the network thread, chunks it names, chunks to forget. */
  private added: { index: number; buffer: SharedArrayBuffer }[] = [];
  private used: number[] = [];
  private readonly usedSet = new Set<number>();
  private dropped: number[] = [];
  /** Chunks larger than CHUNK_BYTES: forgotten once written. */
  private readonly oversized = new Set<number>();
  private current: Uint8Array | null = null;
  private currentIndex = -1;
  private at = 0;
  private readonly ids = new Grow(new Int32Array(1024));
  private readonly text = new Grow(new Uint8Array(1024));
  private readonly firstSegment = new Grow(new Uint32Array(1024));
  private readonly segChunk = new Grow(new Uint32Array(1024));
  private readonly segStart = new Grow(new Uint32Array(1024));
  private readonly segEnd = new Grow(new Uint32Array(1024));
  /** Where a frame object already in this batch lies: [chunk, start, end]. */
  private readonly stored = new Map<Uint8Array | string, [number, number, number]>();
  private readonly encoder = new TextEncoder();
  /** Bytes queued (counted per entry, as sent) since the last read of it (for metrics). */
  bytes = 0;

  get count(): number {
    return this.ids.n;
  }

  /** Chunks allocated and not forgotten (for tests and metrics). */
  get chunkCount(): number {
    return this.pool.size;
  }

  /** Chunks the network thread has written and handed back. */
  recycle(indices: readonly number[]): void {
    for (const i of indices) this.release(i);
  }

  /**
   * ChunkSource: shared memory for frames encoded elsewhere (the replication arena). It stays the
   * borrower's until giveBack(), and after that until every batch that names it has been written.
   */
  lend(n: number): { id: number; bytes: Uint8Array } {
    const id =
      n > CHUNK_BYTES ? this.newChunk(n, true) : (this.free.pop() ?? this.newChunk(CHUNK_BYTES, false));
    this.holds.set(id, 1);
    return { id, bytes: this.pool.get(id) as Uint8Array };
  }

  giveBack(ids: readonly number[]): void {
    for (const id of ids) this.release(id);
  }

  private hold(id: number): void {
    if (this.usedSet.has(id)) return;
    this.usedSet.add(id);
    this.used.push(id);
    this.holds.set(id, (this.holds.get(id) ?? 0) + 1);
  }

  private release(id: number): void {
    const left = (this.holds.get(id) ?? 1) - 1;
    if (left > 0) {
      this.holds.set(id, left);
      return;
    }
    this.holds.delete(id);
    if (!this.pool.has(id)) return;
    if (this.oversized.has(id) || this.free.length >= MAX_SPARE_CHUNKS) {
      // A one-off large chunk, or more spares than a busy tick needs: both threads drop it.
      this.oversized.delete(id);
      this.pool.delete(id);
      this.dropped.push(id);
    } else this.free.push(id);
  }

  /**
   * Queue a frame for a connection. Bytes and strings are copied now; the same object queued twice in
   * one batch must hold the same bytes both times. Segments must name chunks lent by this writer in
   * this turn; the list itself is read now (its owner may reuse it).
   */
  add(connId: number, frame: QueuedFrame): void {
    this.ids.push(connId);
    this.firstSegment.push(this.segChunk.n);
    if (typeof frame !== 'string' && !(frame instanceof Uint8Array)) {
      this.text.push(0);
      const { chunk, start, end } = frame;
      let held = -1;
      for (let i = 0; i < frame.count; i++) {
        const c = chunk[i] as number;
        if (c !== held) {
          this.hold(c);
          held = c;
        }
        this.segChunk.push(c);
        this.segStart.push(start[i] as number);
        this.segEnd.push(end[i] as number);
      }
      this.bytes += frame.bytes;
      return;
    }
    let where = this.stored.get(frame);
    if (where === undefined) {
      where = typeof frame === 'string' ? this.putText(frame) : this.putBytes(frame);
      this.stored.set(frame, where);
    }
    this.text.push(typeof frame === 'string' ? 1 : 0);
    this.segChunk.push(where[0]);
    this.segStart.push(where[1]);
    this.segEnd.push(where[2]);
    this.bytes += where[2] - where[1];
  }

  /** The batch so far, or null when it holds no frame; starts a new one. */
  take(): FrameBatch | null {
    if (this.ids.n === 0) return null;
    this.firstSegment.push(this.segChunk.n);
    const batch: FrameBatch = {
      added: this.added,
      used: this.used,
      dropped: this.dropped,
      count: this.ids.n,
      ids: this.ids.take(),
      text: this.text.take(),
      firstSegment: this.firstSegment.take(),
      chunk: this.segChunk.take(),
      start: this.segStart.take(),
      end: this.segEnd.take(),
    };
    this.added = [];
    this.used = [];
    this.usedSet.clear();
    this.dropped = [];
    this.current = null;
    this.currentIndex = -1;
    this.at = 0;
    this.stored.clear();
    return batch;
  }

  private putBytes(frame: Uint8Array): [number, number, number] {
    const [chunk, start] = this.room(frame.byteLength);
    (this.pool.get(chunk) as Uint8Array).set(frame, start);
    return [chunk, start, start + frame.byteLength];
  }

  private putText(frame: string): [number, number, number] {
    // UTF-8 is at most 3 bytes per UTF-16 unit.
    const [chunk, start] = this.room(frame.length * 3);
    const { written } = this.encoder.encodeInto(frame, (this.pool.get(chunk) as Uint8Array).subarray(start));
    if (chunk === this.currentIndex) this.at = start + written;
    return [chunk, start, start + written];
  }

  private newChunk(size: number, oversized: boolean): number {
    const index = this.nextIndex++;
    const buffer = new SharedArrayBuffer(size);
    this.pool.set(index, new Uint8Array(buffer));
    this.added.push({ index, buffer });
    if (oversized) this.oversized.add(index);
    return index;
  }

  /** A chunk index and offset with room for n bytes (a copied frame never spans two chunks). */
  private room(n: number): [number, number] {
    if (n > CHUNK_BYTES) {
      // A frame larger than a chunk gets one of its own; the current chunk stays open.
      const index = this.newChunk(n, true);
      this.hold(index);
      return [index, 0];
    }
    if (this.current === null || this.at + n > CHUNK_BYTES) {
      const index = this.free.pop() ?? this.newChunk(CHUNK_BYTES, false);
      this.current = this.pool.get(index) as Uint8Array;
      this.currentIndex = index;
      this.hold(index);
      this.at = 0;
    }
    const start = this.at;
    this.at += n;
    return [this.currentIndex, start];
  }
}

/** The network thread's side of the chunks: what each index names. */
export class FrameChunks {
  private readonly views = new Map<number, Uint8Array>();
  private scratch = new Uint8Array(64 * 1024);

  /**
   * Learn the batch's new chunks and forget dropped ones (before reading it). Added first: a chunk
   * lent and dropped before any batch left is in both lists, and indices are never reused.
   */
  accept(batch: FrameBatch): void {
    for (const { index, buffer } of batch.added) this.views.set(index, new Uint8Array(buffer));
    for (const i of batch.dropped) this.views.delete(i);
  }

  get(index: number): Uint8Array {
    const v = this.views.get(index);
    if (v === undefined) throw new Error(`frame batch names unknown chunk ${index}`);
    return v;
  }

  /**
   * Frame i's bytes: a view of its chunk, or, for a frame of several stretches, the stretches joined
   * into a scratch buffer that the next call overwrites (uWS copies what it sends).
   */
  frame(batch: FrameBatch, i: number): Uint8Array {
    const first = batch.firstSegment[i] as number;
    const last = batch.firstSegment[i + 1] as number;
    if (last - first === 1)
      return this.get(batch.chunk[first] as number).subarray(batch.start[first], batch.end[first]);
    let size = 0;
    for (let s = first; s < last; s++) size += (batch.end[s] as number) - (batch.start[s] as number);
    if (this.scratch.length < size) this.scratch = new Uint8Array(Math.max(size, this.scratch.length * 2));
    let at = 0;
    for (let s = first; s < last; s++) {
      const part = this.get(batch.chunk[s] as number).subarray(batch.start[s], batch.end[s]);
      this.scratch.set(part, at);
      at += part.length;
    }
    return this.scratch.subarray(0, size);
  }
}

/**
 * The entries of a batch grouped by connection, in order: entries [first, end) go to connection id.
 * Consecutive frames of one connection leave in one cork.
 */
export function* connectionRuns(batch: FrameBatch): Generator<{ id: number; first: number; end: number }> {
  let i = 0;
  while (i < batch.count) {
    const id = batch.ids[i] as number;
    const first = i;
    while (i < batch.count && batch.ids[i] === id) i++;
    yield { id, first, end: i };
  }
}

/** Every frame of a batch, copied, grouped by connection (tests and diagnostics). */
export function* framesByConnection(
  batch: FrameBatch,
  chunks: FrameChunks,
): Generator<{ id: number; frames: { bytes: Uint8Array; text: boolean }[] }> {
  for (const { id, first, end } of connectionRuns(batch)) {
    const frames: { bytes: Uint8Array; text: boolean }[] = [];
    for (let i = first; i < end; i++)
      frames.push({ bytes: chunks.frame(batch, i).slice(), text: batch.text[i] === 1 });
    yield { id, frames };
  }
}
