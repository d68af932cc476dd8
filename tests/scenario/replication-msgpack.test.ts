import fc from 'fast-check';
import { Packr, unpack } from 'msgpackr';
import { describe, expect, it } from 'vitest';
import { packFlat, packStrings } from '../../net/replication/msgpack-entity.ts';

const value = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ minLength: 20, maxLength: 400, unit: 'grapheme' }),
  fc.integer({ min: -2147483648, max: 4294967295 }),
  fc.integer({ min: -200, max: 70000 }),
  fc.double({ noNaN: true }),
  fc.boolean(),
);

describe('hand-written msgpack of entity entries', () => {
  it('decodes with a stock unpack to the same object, for any flat object', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.string({ minLength: 1, maxLength: 12 }), value, { maxKeys: 20 }),
        (obj) => {
          const clean = Object.fromEntries(Object.entries(obj).filter(([k]) => k !== '__proto__'));
          expect(unpack(packFlat(clean))).toEqual(clean);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('skips undefined fields, and each result is an independent copy', () => {
    const a = packFlat({ id: 'char-1', type: 'player', x: 10, z: -3, moving: undefined });
    const b = packFlat({ id: 'npc-2', type: 'npc', x: 1000, z: 70000, depleted: true });
    expect(unpack(a)).toEqual({ id: 'char-1', type: 'player', x: 10, z: -3 });
    expect(unpack(b)).toEqual({ id: 'npc-2', type: 'npc', x: 1000, z: 70000, depleted: true });
    expect(Object.is((unpack(packFlat({ health: -0 })) as { health: number }).health, -0)).toBe(true);
  });

  it('string lists (removed ids) decode to the same array, any length and any text', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.string({ maxLength: 40 }), fc.string({ maxLength: 80, unit: 'grapheme' })), {
          maxLength: 40,
        }),
        (list) => {
          expect(unpack(packStrings(list))).toEqual(list);
        },
      ),
      { numRuns: 300 },
    );
    const many = Array.from({ length: 70_000 }, (_, i) => `npc-${i}`);
    expect(unpack(packStrings(many))).toEqual(many);
  });

  it('writes ASCII strings (ids are 36-character UUIDs) byte for byte as msgpackr does: fixstr, str8, str16', () => {
    const packr = new Packr({ useRecords: false, moreTypes: false });
    for (let n = 0; n <= 300; n++) {
      const s = 'abcdefghij-0123456789'.repeat(15).slice(0, n);
      expect(Buffer.from(packStrings([s])).equals(Buffer.from(packr.pack([s])))).toBe(true);
    }
  });
});
