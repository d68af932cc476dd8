/**
 * Limits on every JSON-like value the server accepts: HTTP bodies, WebSocket messages (JSON text and
 * MessagePack), and JSON read back from the database. Depth is what hurts: JSON.stringify, msgpackr's
 * pack and unpack recurse once per level and overflow the stack between ~1,500 and ~10,000 levels, and
 * a value accepted at the edge is encoded again later, in the tick. So depth is measured before parsing,
 * over the raw bytes, with loops and no recursion: a value of any depth is refused cleanly.
 *
 * Depth: a scalar is 0, `[]` and `{}` are 1, `[[1]]` is 2. A WebSocket message `[event, payload]` counts
 * its outer array, so its payload may nest 31 levels.
 */

/** The deepest nesting accepted anywhere; real clients stay under 10. */
export const MAX_JSON_DEPTH = 32;
/**
 * The largest JSON value read back from a database column: far above anything the server writes (a
 * goal arrives in a body of at most 64 KiB; a character's quest progress is a few KiB), and a bound on
 * what one hand-edited row can make a load allocate.
 */
export const MAX_STORED_JSON_BYTES = 1024 * 1024;

/** "nested more than 32 levels deep": the wording every refusal uses, so each names the limit. */
export const TOO_DEEP = `nested more than ${MAX_JSON_DEPTH} levels deep`;

/**
 * Nesting depth of JSON text (bytes or string), counted over its brackets outside strings; stops as soon
 * as it passes `limit` (returning limit + 1). Exact for valid JSON; for malformed text, JSON.parse
 * refuses it anyway. UTF-8 continuation bytes are all >= 0x80, so scanning bytes never misreads one.
 */
export function jsonTextDepth(text: string | Uint8Array, limit = MAX_JSON_DEPTH): number {
  const isString = typeof text === 'string';
  const n = text.length;
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < n; i++) {
    const c = isString ? text.charCodeAt(i) : (text[i] as number);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: the next character is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) {
        max = depth;
        if (max > limit) return max;
      }
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return max;
}

/** What a scan of MessagePack bytes found. */
export type MsgpackScan =
  | { ok: true; depth: number }
  /** An extension type (msgpackr records, typed arrays, dates...): no client message needs one. */
  | { ok: false; reason: 'extension' };

/**
 * Nesting depth of the first MessagePack value in `bytes`, read header by header with an explicit stack
 * (stops once past `limit`). Extension types are refused rather than measured: msgpackr decodes some of
 * them (records, structured clones) by reading nested values inside, where a header scan cannot see.
 * Truncated input ends the scan: unpack refuses it anyway.
 */
export function msgpackDepth(bytes: Uint8Array, limit = MAX_JSON_DEPTH): MsgpackScan {
  const n = bytes.length;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // Children still to read in each open container (a map's entries count twice: key and value).
  const open: number[] = [];
  let max = 0;
  let pos = 0;
  while (pos < n) {
    const b = bytes[pos] as number;
    let size = 1;
    let children = -1;
    if (b <= 0x7f || b >= 0xe0 || (b >= 0xc0 && b <= 0xc3)) size = 1;
    else if (b <= 0x8f) children = (b & 0x0f) * 2;
    else if (b <= 0x9f) children = b & 0x0f;
    else if (b <= 0xbf) size = 1 + (b & 0x1f);
    else if ((b >= 0xc7 && b <= 0xc9) || (b >= 0xd4 && b <= 0xd8)) return { ok: false, reason: 'extension' };
    else if (b >= 0xca && b <= 0xd3) size = FIXED_SIZE[b - 0xca] as number;
    else {
      // A length or count field of 1, 2 or 4 bytes follows: bin, str, array, map.
      const field =
        b === 0xc4 || b === 0xd9 ? 1 : b === 0xc5 || b === 0xda || b === 0xdc || b === 0xde ? 2 : 4;
      if (pos + 1 + field > n) break; // truncated
      const len =
        field === 1
          ? (bytes[pos + 1] as number)
          : field === 2
            ? view.getUint16(pos + 1)
            : view.getUint32(pos + 1);
      size = 1 + field;
      if (b === 0xdc || b === 0xdd) children = len;
      else if (b === 0xde || b === 0xdf) children = len * 2;
      else size += len;
    }
    pos += size;
    // This value is one child of the innermost open container (never at 0: finished ones are popped).
    if (open.length > 0) open[open.length - 1]!--;
    if (children > 0) {
      open.push(children);
      if (open.length > max) max = open.length;
      if (max > limit) return { ok: true, depth: max };
      continue;
    }
    if (children === 0 && open.length + 1 > max) {
      max = open.length + 1;
      if (max > limit) return { ok: true, depth: max };
    }
    while (open.length > 0 && open[open.length - 1] === 0) open.pop();
    if (open.length === 0) break; // the first value is complete
  }
  return { ok: true, depth: max };
}

/** Sizes of the fixed-size types 0xca..0xd3: float 32/64, uint 8/16/32/64, int 8/16/32/64. */
const FIXED_SIZE = [5, 9, 2, 3, 5, 9, 2, 3, 5, 9];

/** Nesting depth of a value already in memory (arrays and plain objects), walked with a stack. */
export function valueDepth(value: unknown, limit = MAX_JSON_DEPTH): number {
  let max = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, d] = stack.pop() as [unknown, number];
    if (v === null || typeof v !== 'object') continue;
    const depth = d + 1;
    if (depth > max) {
      max = depth;
      if (max > limit) return max;
    }
    const children = Array.isArray(v) ? v : Object.values(v as object);
    for (let i = 0; i < children.length; i++) stack.push([children[i], depth]);
  }
  return max;
}
