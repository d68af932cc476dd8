import type { FrameBatch } from './messages.ts';

/**
 * Collects outgoing frames of many connections for one transfer to the network thread. Bytes go into
 * fixed-size chunks (copied in at once, so callers may reuse their scratch buffers); the chunks are
 * transferred, written, handed back and reused: a 2,000-player crowd moves ~80 MB a tick, and fresh
 * buffers of that size cost a page fault per 4 KiB. A frame object queued again in the same batch (one
 * chat line to 2,000 hearers) is stored once and referenced by each entry.
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

export class FrameBatchWriter {
  private chunks: Uint8Array[] = [];
  private current: Uint8Array | null = null;
  private currentIndex = -1;
  private at = 0;
  private readonly ids = new Grow(new Int32Array(1024));
  private readonly chunkOf = new Grow(new Uint32Array(1024));
  private readonly starts = new Grow(new Uint32Array(1024));
  private readonly ends = new Grow(new Uint32Array(1024));
  private readonly text = new Grow(new Uint8Array(1024));
  /** Where a frame object already in this batch lies: [chunk, start, end]. */
  private readonly stored = new Map<Uint8Array | string, [number, number, number]>();
  private readonly spares: ArrayBuffer[] = [];
  private readonly encoder = new TextEncoder();
  /** Bytes queued (counted per entry, as sent) since the last read of it (for metrics). */
  bytes = 0;

  get count(): number {
    return this.ids.n;
  }

  /** A written chunk handed back by the network thread. */
  recycle(buffer: ArrayBuffer): void {
    if (buffer.byteLength === CHUNK_BYTES && this.spares.length < MAX_SPARE_CHUNKS) this.spares.push(buffer);
  }

  /**
   * Queue a frame for a connection. The same frame object queued twice in one batch must hold the same
   * bytes both times (callers pass a fresh view for each scratch write).
   */
  add(connId: number, frame: Uint8Array | string): void {
    let where = this.stored.get(frame);
    if (where === undefined) {
      where = typeof frame === 'string' ? this.putText(frame) : this.putBytes(frame);
      this.stored.set(frame, where);
    }
    this.ids.push(connId);
    this.chunkOf.push(where[0]);
    this.starts.push(where[1]);
    this.ends.push(where[2]);
    this.text.push(typeof frame === 'string' ? 1 : 0);
    this.bytes += where[2] - where[1];
  }

  /** The batch so far (its chunks to be transferred), or null when empty; starts a new one. */
  take(): FrameBatch | null {
    if (this.ids.n === 0) return null;
    const batch: FrameBatch = {
      buffers: this.chunks.map((c) => c.buffer as ArrayBuffer),
      count: this.ids.n,
      ids: this.ids.take(),
      chunk: this.chunkOf.take(),
      start: this.starts.take(),
      end: this.ends.take(),
      text: this.text.take(),
    };
    this.chunks = [];
    this.current = null;
    this.currentIndex = -1;
    this.at = 0;
    this.stored.clear();
    return batch;
  }

  private putBytes(frame: Uint8Array): [number, number, number] {
    const [chunk, start] = this.room(frame.byteLength);
    (this.chunks[chunk] as Uint8Array).set(frame, start);
    return [chunk, start, start + frame.byteLength];
  }

  private putText(frame: string): [number, number, number] {
    // UTF-8 is at most 3 bytes per UTF-16 unit.
    const [chunk, start] = this.room(frame.length * 3);
    const { written } = this.encoder.encodeInto(frame, (this.chunks[chunk] as Uint8Array).subarray(start));
    if (chunk === this.currentIndex) this.at = start + written;
    return [chunk, start, start + written];
  }

  /** A chunk index and offset with room for n bytes (a frame never spans two chunks). */
  private room(n: number): [number, number] {
    if (n > CHUNK_BYTES) {
      // A frame larger than a chunk gets its own buffer; the current chunk stays open.
      this.chunks.push(new Uint8Array(n));
      return [this.chunks.length - 1, 0];
    }
    if (this.current === null || this.at + n > CHUNK_BYTES) {
      const spare = this.spares.pop();
      this.current = spare !== undefined ? new Uint8Array(spare) : new Uint8Array(CHUNK_BYTES);
      this.chunks.push(this.current);
      this.currentIndex = this.chunks.length - 1;
      this.at = 0;
    }
    const start = this.at;
    this.at += n;
    return [this.currentIndex, start];
  }
}

/** The frames of a batch grouped by connection, in order (network thread side). */
export function* framesByConnection(
  batch: FrameBatch,
): Generator<{ id: number; frames: { bytes: Uint8Array; text: boolean }[] }> {
  const chunks = batch.buffers.map((b) => new Uint8Array(b));
  let i = 0;
  while (i < batch.count) {
    const id = batch.ids[i] as number;
    const frames: { bytes: Uint8Array; text: boolean }[] = [];
    while (i < batch.count && batch.ids[i] === id) {
      const chunk = chunks[batch.chunk[i] as number] as Uint8Array;
      frames.push({ bytes: chunk.subarray(batch.start[i], batch.end[i]), text: batch.text[i] === 1 });
      i++;
    }
    yield { id, frames };
  }
}
