/**
 * A hand-written MessagePack encoder for world:update entity entries: flat objects of string keys with
 * string, number or boolean values. The hot path of replication encodes thousands of them per tick;
 * this writes them into one scratch buffer without the general encoder's per-call set-up. The output is
 * standard MessagePack (stock `unpack` decodes it to the same object); tests compare it with msgpackr.
 */

let scratch = Buffer.allocUnsafe(64 * 1024);
let at = 0;

function ensure(n: number): void {
  if (at + n <= scratch.length) return;
  const bigger = Buffer.allocUnsafe(Math.max(scratch.length * 2, at + n));
  scratch.copy(bigger, 0, 0, at);
  scratch = bigger;
}

function writeString(s: string): void {
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

/** MessagePack of a flat object (keys in insertion order; undefined values skipped). */
export function packFlat(obj: Record<string, string | number | boolean | undefined>): Uint8Array {
  at = 0;
  const keys = Object.keys(obj);
  let count = 0;
  for (const k of keys) if (obj[k] !== undefined) count++;
  ensure(3);
  if (count < 16) scratch[at++] = 0x80 | count;
  else {
    scratch[at++] = 0xde;
    scratch.writeUInt16BE(count, at);
    at += 2;
  }
  for (const k of keys) {
    const v = obj[k];
    if (v === undefined) continue;
    writeString(k);
    if (typeof v === 'string') writeString(v);
    else if (typeof v === 'number') writeNumber(v);
    else {
      ensure(1);
      scratch[at++] = v ? 0xc3 : 0xc2;
    }
  }
  return Uint8Array.prototype.slice.call(scratch, 0, at);
}
