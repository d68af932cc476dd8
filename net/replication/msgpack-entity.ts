/**
 * A hand-written MessagePack encoder for world:update entity entries: flat objects of string keys with
 * string, number, boolean or null values. The hot path of replication encodes thousands of them per tick;
 * this writes them into one scratch buffer without the general encoder's per-call set-up. The output is
 * standard MessagePack (stock `unpack` decodes it to the same object); tests compare it with msgpackr.
 */

// A Buffer (utf8 and big-endian writers) and a plain Uint8Array over the same memory: results are cut
// from the plain view, since slicing a Buffer goes through its species constructor (measurably slower).
let scratch = Buffer.allocUnsafe(64 * 1024);
let plain = new Uint8Array(scratch.buffer, scratch.byteOffset, scratch.length);
let at = 0;

function ensure(n: number): void {
  if (at + n <= scratch.length) return;
  const bigger = Buffer.allocUnsafe(Math.max(scratch.length * 2, at + n));
  scratch.copy(bigger, 0, 0, at);
  scratch = bigger;
  plain = new Uint8Array(scratch.buffer, scratch.byteOffset, scratch.length);
}

function writeString(s: string): void {
  // Keys, ids (a player's is a 36-character UUID) and types are short ASCII: copied by hand (the native
  // utf8 write costs more per call). Same bytes as a general encoder: fixstr up to 31, then str8.
  const n = s.length;
  if (n <= 0xff) {
    const header = n <= 31 ? 1 : 2;
    ensure(n + header);
    let i = 0;
    for (; i < n; i++) {
      const ch = s.charCodeAt(i);
      if (ch >= 0x80) break;
      scratch[at + header + i] = ch;
    }
    if (i === n) {
      if (header === 1) scratch[at] = 0xa0 | n;
      else {
        scratch[at] = 0xd9;
        scratch[at + 1] = n;
      }
      at += n + header;
      return;
    }
  }
  // Wire ids and names are short; encode into the buffer and patch the header length after.
  const max = s.length * 3;
  ensure(max + 5);
  const headerAt = at;
  const header = max <= 31 ? 1 : max <= 0xff ? 2 : max <= 0xffff ? 3 : 5;
  at += header;
  const len = scratch.write(s, at, 'utf8');
  at += len;
  if (header === 1) scratch[headerAt] = 0xa0 | len;
  else if (header === 2) {
    scratch[headerAt] = 0xd9;
    scratch[headerAt + 1] = len;
  } else if (header === 3) {
    scratch[headerAt] = 0xda;
    scratch.writeUInt16BE(len, headerAt + 1);
  } else {
    scratch[headerAt] = 0xdb;
    scratch.writeUInt32BE(len, headerAt + 1);
  }
}

function writeNumber(n: number): void {
  ensure(9);
  // -0 is not an integer on the wire: it stays a float so it decodes as -0.
  if (Number.isInteger(n) && !Object.is(n, -0) && n >= -2147483648 && n <= 4294967295) {
    if (n >= 0) {
      if (n < 128) scratch[at++] = n;
      else if (n < 0x100) {
        scratch[at++] = 0xcc;
        scratch[at++] = n;
      } else if (n < 0x10000) {
        scratch[at++] = 0xcd;
        scratch.writeUInt16BE(n, at);
        at += 2;
      } else {
        scratch[at++] = 0xce;
        scratch.writeUInt32BE(n, at);
        at += 4;
      }
    } else if (n >= -32) scratch[at++] = n & 0xff;
    else if (n >= -128) {
      scratch[at++] = 0xd0;
      scratch.writeInt8(n, at++);
    } else if (n >= -32768) {
      scratch[at++] = 0xd1;
      scratch.writeInt16BE(n, at);
      at += 2;
    } else {
      scratch[at++] = 0xd2;
      scratch.writeInt32BE(n, at);
      at += 4;
    }
    return;
  }
  scratch[at++] = 0xcb;
  scratch.writeDoubleBE(n, at);
  at += 8;
}

/**
 * Where an arena gets its chunks when what it encodes is to be read on another thread (the network
 * thread's frame batch, net/thread/frame-batch.ts): shared memory, held until given back.
 */
export interface ChunkSource {
  lend(n: number): { id: number; bytes: Uint8Array };
  giveBack(ids: readonly number[]): void;
}

/**
 * A frame as stretches of shared chunks, in order: segment i is bytes [start[i], end[i]) of the chunk
 * numbered chunk[i]. Its owner reuses it: read it before asking for the next one.
 */
export interface FrameSegments {
  count: number;
  /** Total bytes. */
  bytes: number;
  chunk: Uint32Array;
  start: Uint32Array;
  end: Uint32Array;
}

/**
 * Bump allocation of short-lived bytes in reused chunks: results are views, not buffers of their own.
 * A tick encodes thousands of entries; an ArrayBuffer each kept the collector busy. Everything handed
 * out is invalid after reset(). With a ChunkSource the chunks are borrowed shared memory, given back at
 * reset(), and every allocation is named by its chunk's id and offset (lastChunk, lastOffset) to others.
 */
export class ByteArena {
  private static readonly CHUNK = 256 * 1024;
  private chunks: Uint8Array[] = [];
  private ids: number[] = [];
  private index = 0;
  private at = 0;
  /** Where the bytes the last alloc() or copy() handed out lie: chunk id and offset. */
  lastChunk = 0;
  lastOffset = 0;

  constructor(private readonly source?: ChunkSource) {}

  get shared(): boolean {
    return this.source !== undefined;
  }

  alloc(n: number): Uint8Array {
    let chunk = this.chunks[this.index];
    if (chunk === undefined || this.at + n > chunk.length) {
      if (chunk !== undefined) this.index++;
      chunk = this.chunks[this.index];
      if (chunk === undefined || chunk.length < n) {
        if (this.source !== undefined) {
          const lent = this.source.lend(Math.max(n, ByteArena.CHUNK));
          chunk = lent.bytes;
          this.ids[this.index] = lent.id;
        } else {
          chunk = new Uint8Array(Math.max(n, ByteArena.CHUNK));
          this.ids[this.index] = this.index;
        }
        this.chunks[this.index] = chunk;
      }
      this.at = 0;
    }
    const out = chunk.subarray(this.at, this.at + n);
    this.lastChunk = this.ids[this.index] as number;
    this.lastOffset = this.at;
    this.at += n;
    return out;
  }

  copy(bytes: Uint8Array): Uint8Array {
    const out = this.alloc(bytes.length);
    out.set(bytes);
    return out;
  }

  reset(): void {
    if (this.source !== undefined && this.chunks.length > 0) {
      // Borrowed: back to the source, which reuses them once the frames naming them are written.
      this.source.giveBack(this.ids);
      this.chunks = [];
      this.ids = [];
    }
    this.index = 0;
    this.at = 0;
  }
}

const result = (arena: ByteArena | undefined): Uint8Array =>
  arena === undefined ? plain.slice(0, at) : arena.copy(plain.subarray(0, at));

/** A value of a wire entry: scalars, and the short lists of small records a tick shows (`hits`). */
export type PackValue = string | number | boolean | null | undefined | readonly PackValue[] | PackRecord;
export interface PackRecord {
  readonly [key: string]: PackValue;
}

function writeMapHeader(count: number): void {
  ensure(3);
  if (count < 16) scratch[at++] = 0x80 | count;
  else {
    scratch[at++] = 0xde;
    scratch.writeUInt16BE(count, at);
    at += 2;
  }
}

// for-in, not Object.keys: no key array per entry (thousands of entries are packed a tick). Entries are
// plain data objects: no inherited enumerable keys.
function writeRecord(obj: PackRecord): void {
  let count = 0;
  for (const k in obj) if (obj[k] !== undefined) count++;
  writeMapHeader(count);
  for (const k in obj) {
    const v = obj[k];
    if (v === undefined) continue;
    writeString(k);
    if (typeof v === 'string') writeString(v);
    else if (typeof v === 'number') writeNumber(v);
    else writeValue(v);
  }
}

function writeValue(v: Exclude<PackValue, undefined>): void {
  if (typeof v === 'string') writeString(v);
  else if (typeof v === 'number') writeNumber(v);
  else if (v === null || typeof v === 'boolean') {
    ensure(1);
    scratch[at++] = v === null ? 0xc0 : v ? 0xc3 : 0xc2;
  } else if (Array.isArray(v)) {
    ensure(5);
    at = writeArrayHeader(scratch, at, v.length);
    for (const item of v as readonly PackValue[]) writeValue(item ?? null);
  } else writeRecord(v as PackRecord);
}

/**
 * MessagePack of an entry (keys in insertion order; undefined values skipped; nested lists and records
 * as a general encoder writes them).
 */
export function packFlat(obj: PackRecord, arena?: ByteArena): Uint8Array {
  at = 0;
  writeRecord(obj);
  return result(arena);
}

/** MessagePack of an array of strings (world:update `removed`), same bytes as a general encoder. */
export function packStrings(list: readonly string[], arena?: ByteArena): Uint8Array {
  at = 0;
  ensure(5);
  at = writeArrayHeader(scratch, 0, list.length);
  for (let i = 0; i < list.length; i++) writeString(list[i] as string);
  return result(arena);
}

/** Bytes of a MessagePack array header for n items. */
export const arrayHeaderLength = (n: number): number => (n < 16 ? 1 : n < 0x10000 ? 3 : 5);

/** Writes a MessagePack array header for n items at `offset`; returns the offset after it. */
export function writeArrayHeader(out: Uint8Array, offset: number, n: number): number {
  let o = offset;
  if (n < 16) out[o++] = 0x90 | n;
  else if (n < 0x10000) {
    out[o++] = 0xdc;
    out[o++] = n >> 8;
    out[o++] = n & 0xff;
  } else {
    out[o++] = 0xdd;
    out[o++] = (n >>> 24) & 0xff;
    out[o++] = (n >>> 16) & 0xff;
    out[o++] = (n >>> 8) & 0xff;
    out[o++] = n & 0xff;
  }
  return o;
}
