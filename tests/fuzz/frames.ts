import fc from 'fast-check';
import { pack } from 'msgpackr';
import { z } from 'zod';
import { clientEvents } from '../../net/protocol/client-events.ts';
import { deepJson, deepMsgpack, jsonFrame, msgpackFrame } from '../helpers/hostile-json.ts';

/**
 * fast-check generators for client frames, derived from the protocol's zod schemas (through their JSON
 * Schema, so a new event or field is fuzzed without touching this file), plus hostile values and raw
 * garbage. A frame is what goes on the socket: a string (text frame) or bytes (binary frame).
 */

// biome-ignore lint/suspicious/noExplicitAny: JSON Schema nodes are walked generically
type Json = any;

/** Values that break naive code: NaN, infinities, -0, huge and unsafe numbers, odd unicode, nesting. */
const deep = (n: number): unknown => (n === 0 ? {} : n % 2 ? [deep(n - 1)] : { a: deep(n - 1) });
const hostileValues: unknown[] = [
  Number.NaN,
  Number.POSITIVE_INFINITY,
  Number.NEGATIVE_INFINITY,
  -0,
  2 ** 53 + 1,
  -(2 ** 63),
  1e308,
  -1,
  0.5,
  2_147_483_648,
  '',
  ' ',
  '\u0000',
  '\uD800', // a lone surrogate
  '\u202Eevil',
  'e\u0301\u0301\u0301',
  '👨‍👩‍👧‍👦',
  '𝕏'.repeat(300),
  'x'.repeat(9000),
  '../../etc/passwd',
  "'; DROP TABLE characters; --",
  '__proto__',
  null,
  true,
  [],
  {},
  { __proto__: { polluted: true } },
  deep(60),
  [1, [2, [3, [4]]]],
];
const hostile = fc.constantFrom(...hostileValues);

function fromSchema(s: Json, ids: fc.Arbitrary<string>): fc.Arbitrary<unknown> {
  if (s.anyOf) return fc.oneof(...s.anyOf.map((o: Json) => fromSchema(o, ids)));
  if (s.const !== undefined) return fc.constant(s.const);
  if (s.enum) return fc.constantFrom(...s.enum);
  switch (s.type) {
    case 'object': {
      const props: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [k, v] of Object.entries(s.properties ?? {})) props[k] = fromSchema(v, ids);
      return fc.record(props, { requiredKeys: s.required ?? [] });
    }
    case 'integer': {
      const min = s.minimum ?? -(2 ** 31);
      const max = s.maximum ?? 2 ** 31;
      // Mostly small values (slots, nearby tiles), sometimes the whole range and its edges.
      return fc.oneof(
        { weight: 3, arbitrary: fc.integer({ min, max: Math.min(max, min + 40) }) },
        { weight: 1, arbitrary: fc.integer({ min, max }) },
        { weight: 1, arbitrary: fc.constantFrom(min, max) },
      );
    }
    case 'number':
      return fc.double({ min: s.minimum, max: s.maximum, noNaN: true });
    case 'boolean':
      return fc.boolean();
    case 'string': {
      const minLength = s.minLength ?? 0;
      const maxLength = Math.min(s.maxLength ?? 64, 300);
      return fc.oneof(
        { weight: 2, arbitrary: ids },
        { weight: 2, arbitrary: fc.string({ minLength, maxLength, unit: 'grapheme' }) },
        { weight: 1, arbitrary: fc.constantFrom('/help', '/admin nope', '/give coins 100', '  ', 'hello') },
      );
    }
    default:
      return fc.jsonValue();
  }
}

const schemas = Object.fromEntries(
  Object.entries(clientEvents).map(([name, schema]) => [name, z.toJSONSchema(schema)]),
) as Record<string, Json>;
// `player:logout` ends the session by design (closed with 1000): the fuzz checks that nothing else does.
const names = Object.keys(schemas).filter((n) => n !== 'player:logout');

/** A payload with one field replaced by a hostile value, dropped, or an unknown key added. */
function mutated(valid: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  return fc
    .tuple(valid, hostile, fc.nat(), fc.constantFrom('replace', 'drop', 'extra'))
    .map(([v, bad, i, how]) => {
      if (v === null || typeof v !== 'object') return bad;
      const o = { ...(v as Record<string, unknown>) };
      const keys = Object.keys(o);
      const k = keys.length > 0 ? (keys[i % keys.length] as string) : 'x';
      if (how === 'replace') o[k] = bad;
      else if (how === 'drop') delete o[k];
      else o[`extra${i % 3}`] = bad;
      return o;
    });
}

export type Frame = string | Uint8Array;

/** Frames for one connection's encoding; `ids` feeds ids that exist in the world (other players...). */
export function frameArb(encoding: 'json' | 'msgpack', ids: fc.Arbitrary<string>): fc.Arbitrary<Frame> {
  const encode = (v: unknown): Frame => {
    if (encoding === 'msgpack') return pack(v);
    return JSON.stringify(v) ?? 'null';
  };
  const event = fc.constantFrom(...names);
  const valid = event.chain((e) => fromSchema(schemas[e], ids).map((p) => [e, p] as const));
  const hostileFrame = event.chain((e) => mutated(fromSchema(schemas[e], ids)).map((p) => [e, p] as const));
  const wrongShape = fc.oneof(
    fc.jsonValue({ maxDepth: 4 }),
    fc.tuple(fc.string({ maxLength: 40 }), fc.jsonValue({ maxDepth: 3 })),
    event.map((e) => [e]),
    event.map((e) => [e, {}, 'third']),
    fc.constant(deep(200)),
    fc.tuple(fc.constantFrom('player:fly', 'Player:Move', 'authenticate ', ''), fc.object()),
  );
  const garbage = fc.oneof(fc.uint8Array({ maxLength: 300 }), fc.string({ maxLength: 300, unit: 'binary' }));
  // Nested past the depth limit, as raw bytes (a value this deep cannot be built and then encoded):
  // inside a real event's payload, or bare; just past the limit, and thousands of levels past it.
  const deepFrame = fc
    .tuple(
      fc.option(event, { nil: null }),
      fc.oneof(fc.integer({ min: 33, max: 300 }), fc.constantFrom(1500, 10_000)),
      fc.integer({ min: 0, max: 2 ** 31 - 1 }),
    )
    .map(([e, levels, pattern]): Frame => {
      if (encoding === 'msgpack') {
        const value = deepMsgpack(levels, pattern);
        return e === null ? value : msgpackFrame(e, 'x', value);
      }
      const value = deepJson(levels, pattern);
      return e === null ? value : jsonFrame(e, 'x', value);
    });
  return fc.oneof(
    { weight: 10, arbitrary: valid.map(encode) },
    { weight: 5, arbitrary: hostileFrame.map(encode) },
    { weight: 3, arbitrary: wrongShape.map(encode) },
    { weight: 2, arbitrary: garbage },
    { weight: 1, arbitrary: deepFrame },
  );
}
