import { fc, test } from '@fast-check/vitest';
import { Packr, pack } from 'msgpackr';
import { describe, expect, it } from 'vitest';
import { jsonTextDepth, MAX_JSON_DEPTH, msgpackDepth, valueDepth } from '../../lib/json-limits.ts';

/** An array nested n levels, built with a loop (a recursive builder would overflow itself). */
function nested(n: number): unknown {
  let v: unknown = 1;
  for (let i = 0; i < n; i++) v = i % 2 ? [v] : { a: v };
  return v;
}
const bytes = (s: string) => new TextEncoder().encode(s);
const msgpackDeep = (n: number) => Uint8Array.from([...new Array(n).fill(0x91), 0x90]);

describe('jsonTextDepth', () => {
  it('counts brackets outside strings only', () => {
    expect(jsonTextDepth('1')).toBe(0);
    expect(jsonTextDepth('[]')).toBe(1);
    expect(jsonTextDepth('{"a":[1,{"b":[]}]}')).toBe(4);
    expect(jsonTextDepth('["[[[[", "{{\\"[[["]')).toBe(1);
    expect(jsonTextDepth(bytes('["é[", {"ü": ["\\\\"]}]'))).toBe(3);
  });

  it('stops just past the limit, whatever the depth (10,000 and 1,000,000 levels)', () => {
    for (const n of [MAX_JSON_DEPTH + 1, 10_000, 1_000_000]) {
      const text = '['.repeat(n) + ']'.repeat(n);
      expect(jsonTextDepth(text)).toBe(MAX_JSON_DEPTH + 1);
      expect(jsonTextDepth(bytes(text))).toBe(MAX_JSON_DEPTH + 1);
    }
    expect(jsonTextDepth('['.repeat(MAX_JSON_DEPTH) + ']'.repeat(MAX_JSON_DEPTH))).toBe(MAX_JSON_DEPTH);
  });

  test.prop([fc.jsonValue({ maxDepth: 40 })], { numRuns: 300 })(
    'equals the parsed value’s depth for any JSON value (capped past the limit)',
    (v) => {
      const text = JSON.stringify(v);
      const expected = Math.min(valueDepth(JSON.parse(text), 1000), MAX_JSON_DEPTH + 1);
      expect(jsonTextDepth(text)).toBe(expected);
      expect(jsonTextDepth(bytes(text))).toBe(expected);
    },
  );
});

describe('msgpackDepth', () => {
  test.prop([fc.jsonValue({ maxDepth: 40 })], { numRuns: 300 })(
    'equals the value’s depth for anything a stock pack() writes (capped past the limit)',
    (v) => {
      const expected = Math.min(valueDepth(v, 1000), MAX_JSON_DEPTH + 1);
      expect(msgpackDepth(pack(v))).toEqual({ ok: true, depth: expected });
    },
  );

  it('measures wide containers and every length form (16- and 32-bit counts, long strings, bins)', () => {
    const wide = Object.fromEntries(Array.from({ length: 70_000 }, (_, i) => [`k${i}`, [i]]));
    expect(msgpackDepth(new Packr({ useRecords: false, variableMapSize: true }).pack(wide))).toEqual({
      ok: true,
      depth: 2,
    });
    expect(msgpackDepth(pack(Array.from({ length: 70_000 }, () => ({}))))).toEqual({ ok: true, depth: 2 });
    const long = ['x'.repeat(70_000), new Uint8Array(300), new Uint8Array(70_000), [[[]]]];
    expect(msgpackDepth(pack(long))).toEqual({ ok: true, depth: 4 });
  });

  it('stops past the limit on 10,000 and 1,000,000 levels', () => {
    for (const n of [10_000, 1_000_000]) {
      expect(msgpackDepth(msgpackDeep(n))).toEqual({ ok: true, depth: MAX_JSON_DEPTH + 1 });
    }
  });

  it('refuses extension types (records, dates, typed arrays): they hide nested values from a scan', () => {
    expect(msgpackDepth(pack([new Date(0)]))).toEqual({ ok: false, reason: 'extension' });
    expect(msgpackDepth(Uint8Array.from([0x92, 0xc7, 0x01, 0x72, 0x00, 0x40]))).toEqual({
      ok: false,
      reason: 'extension',
    });
  });

  it('never throws on truncated or garbage input', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (b) => {
        const r = msgpackDepth(b);
        expect(r.ok ? r.depth : 0).toBeLessThanOrEqual(MAX_JSON_DEPTH + 1);
      }),
      { numRuns: 500 },
    );
    expect(msgpackDepth(Uint8Array.from([0xdd, 0xff]))).toEqual({ ok: true, depth: 0 });
    expect(msgpackDepth(Uint8Array.from([0x92, 0x92, 0x92]))).toEqual({ ok: true, depth: 3 });
  });
});

describe('valueDepth', () => {
  it('walks without recursion: 100,000 levels are measured, not a stack overflow', () => {
    expect(valueDepth(nested(100_000))).toBe(MAX_JSON_DEPTH + 1);
    expect(valueDepth(nested(100_000), 200_000)).toBe(100_000);
    expect(valueDepth({ a: [], b: { c: 'x' } })).toBe(2);
    expect(valueDepth('x')).toBe(0);
  });
});
