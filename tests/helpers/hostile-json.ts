import fc from 'fast-check';
import { pack } from 'msgpackr';
import { MAX_JSON_DEPTH } from '../../lib/json-limits.ts';

/**
 * Values past the server's JSON limits, as raw bytes (a deep value cannot be built as an object and
 * stringified or packed: that is exactly what overflows). Deep: nested arrays and one-key objects in a
 * pattern; wide: many keys or elements; long: a long string. Shared by the property test over every
 * route and event and by the fuzzer.
 */

/** Level i is an array when bit (i mod 31) of `pattern` is set, else an object `{"k": ...}`. */
const isArray = (pattern: number, i: number) => ((pattern >>> (i % 31)) & 1) === 1;

/** JSON text of `levels` nested containers around `1`. */
export function deepJson(levels: number, pattern = 0): string {
  let open = '';
  let close = '';
  for (let i = 0; i < levels; i++) {
    open += isArray(pattern, i) ? '[' : '{"k":';
    close = (isArray(pattern, i) ? ']' : '}') + close;
  }
  return `${open}1${close}`;
}

/** The same value as MessagePack bytes (one-element arrays, one-key maps). */
export function deepMsgpack(levels: number, pattern = 0): Uint8Array {
  const out = new Uint8Array(levels * 3 + 1);
  let at = 0;
  for (let i = 0; i < levels; i++) {
    if (isArray(pattern, i)) out[at++] = 0x91;
    else {
      out[at++] = 0x81;
      out[at++] = 0xa1;
      out[at++] = 0x6b; // "k"
    }
  }
  out[at++] = 0x01;
  return out.subarray(0, at);
}

/** `{"<field>": <raw>}`, or `<raw>` alone when field is null: a JSON body around raw JSON text. */
export const inField = (field: string | null, raw: string) =>
  field === null ? raw : `{${JSON.stringify(field)}:${raw}}`;

/** A WebSocket message `[event, {field: value}]` (or `[event, value]`) as JSON text around raw text. */
export const jsonFrame = (event: string, field: string | null, raw: string) =>
  `[${JSON.stringify(event)},${inField(field, raw)}]`;

/** The same as MessagePack, around raw MessagePack bytes. */
export function msgpackFrame(event: string, field: string | null, raw: Uint8Array): Uint8Array {
  const head = pack(event);
  const parts: Uint8Array[] = [Uint8Array.of(0x92), head];
  if (field !== null) parts.push(Uint8Array.of(0x81), pack(field));
  parts.push(raw);
  return Buffer.concat(parts);
}

export type Hostile =
  | { kind: 'deep'; levels: number; pattern: number }
  | { kind: 'wide'; count: number; array: boolean }
  | { kind: 'long'; length: number };

/** Deep values just past the limit and far past it; wide and long ones; all inside a 64 KiB message. */
export const hostileArb: fc.Arbitrary<Hostile> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('deep' as const),
      levels: fc.oneof(
        fc.integer({ min: MAX_JSON_DEPTH + 1, max: 200 }),
        // 10,000 one-key objects are ~60 KB of JSON: deep, and still inside a 64 KiB frame.
        fc.constantFrom(1500, 10_000),
      ),
      pattern: fc.integer({ min: 0, max: 2 ** 31 - 1 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('wide' as const),
      count: fc.integer({ min: 100, max: 4000 }),
      array: fc.boolean(),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('long' as const),
      length: fc.integer({ min: 300, max: 40_000 }),
    }),
  },
);

/** The hostile value as a JS value (wide, long) or raw text (deep), for JSON. */
export function hostileJson(h: Hostile): string {
  if (h.kind === 'deep') return deepJson(h.levels, h.pattern);
  if (h.kind === 'long') return JSON.stringify('x'.repeat(h.length));
  const keys = Array.from({ length: h.count }, (_, i) => i);
  return h.array ? JSON.stringify(keys) : JSON.stringify(Object.fromEntries(keys.map((i) => [`k${i}`, i])));
}

/** The hostile value as MessagePack bytes. */
export function hostileMsgpack(h: Hostile): Uint8Array {
  if (h.kind === 'deep') return deepMsgpack(h.levels, h.pattern);
  return pack(JSON.parse(hostileJson(h)));
}
