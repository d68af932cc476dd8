import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type CharacterSlices,
  type CharacterState,
  EQUIP_SLOTS,
  INVENTORY_SLOTS,
  type ItemStack,
} from '../../ecs/core/character-state.ts';
import { newSkills, SKILLS } from '../../ecs/core/skills.ts';
import { SLICES } from '../../persistence/slices/index.ts';
import { copyCharacter, copyCharacterInto, copyData } from '../../persistence/snapshot-copy.ts';
import { SAMPLE_SLICES, sampleSlices } from '../fixtures/slices.ts';

/**
 * The save scheduler copies what the simulation hands over (copyCharacter), and refreshes a waiting
 * snapshot in place (copyCharacterInto: a moving player is dirty every tick). Either must be exactly
 * the character, every field and every persistence slice included, sharing nothing with the live state.
 */

const stack = fc.record({
  itemId: fc.constantFrom('logs', 'coins', 'bronze_sword', 'tuna'),
  quantity: fc.nat(1e6),
});

const name = fc.string({ minLength: 1, maxLength: 8 });
const entry = fc.record({ id: name, name });

/** Any value of each slice; typed so that a new slice must get an arbitrary here. */
const sliceValues: { [K in keyof CharacterSlices]-?: fc.Arbitrary<NonNullable<CharacterSlices[K]>> } = {
  homeTeleport: fc.record({ readyAtMs: fc.nat() }),
  movement: fc.record({ runEnergy: fc.nat(10_000) }),
  quests: fc.record({
    points: fc.nat(500),
    quests: fc.dictionary(
      name,
      fc.record({
        status: fc.constantFrom('in_progress' as const, 'completed' as const),
        stage: fc.nat(9),
        progress: fc.nat(99),
      }),
    ),
  }),
  social: fc.record({
    friends: fc.array(entry, { maxLength: 4 }),
    ignored: fc.array(entry, { maxLength: 4 }),
    requests: fc.array(fc.record({ requestId: name, fromId: name, fromName: name }), { maxLength: 4 }),
    outgoing: fc.array(entry, { maxLength: 4 }),
  }),
  prayer: fc.record({ points: fc.nat(99) }),
  npcKills: fc.dictionary(name, fc.nat(1e6)),
};

const character: fc.Arbitrary<CharacterState> = fc.record(
  {
    id: fc.constant('c1'),
    accountId: name,
    name: fc.string({ minLength: 1, maxLength: 12 }),
    position: fc.record({ x: fc.integer(), y: fc.integer(), z: fc.integer() }),
    health: fc.nat(99),
    coins: fc.nat(1e9),
    skills: fc
      .tuple(...SKILLS.map(() => fc.record({ level: fc.integer({ min: 1, max: 99 }), xp: fc.nat(1e7) })))
      .map((values) => Object.fromEntries(SKILLS.map((s, i) => [s, values[i]])) as CharacterState['skills']),
    inventory: fc.array(fc.option(stack, { nil: null }), {
      minLength: INVENTORY_SLOTS,
      maxLength: INVENTORY_SLOTS,
    }),
    equipment: fc
      .subarray([...EQUIP_SLOTS])
      .chain((slots) =>
        fc.tuple(...slots.map(() => stack)).map((s) => Object.fromEntries(slots.map((k, i) => [k, s[i]]))),
      ),
    bank: fc.array(stack, { maxLength: 40 }),
    slices: fc.record(sliceValues, { requiredKeys: [] }),
  },
  {
    requiredKeys: [
      'id',
      'accountId',
      'name',
      'position',
      'health',
      'coins',
      'skills',
      'inventory',
      'equipment',
      'bank',
    ],
  },
);

/** Changes every number, string and boolean reachable from `v` in place (to catch any shared object). */
function touchEveryLeaf(v: unknown): void {
  if (typeof v !== 'object' || v === null) return;
  const o = v as Record<string, unknown>;
  for (const k of Object.keys(o)) {
    const x = o[k];
    if (typeof x === 'number') o[k] = x + 1;
    else if (typeof x === 'string') o[k] = `${x}!`;
    else if (typeof x === 'boolean') o[k] = !x;
    else touchEveryLeaf(x);
  }
}

/** Every field of a character set, not one left to its default: a field added to the type must be set here. */
function fullCharacter(): Required<CharacterState> {
  const skills = newSkills();
  skills.attack = { level: 12, xp: 1500 };
  skills.prayer = { level: 9, xp: 1000 };
  const inventory: (ItemStack | null)[] = Array.from({ length: INVENTORY_SLOTS }, () => null);
  inventory[3] = { itemId: 'logs', quantity: 4 };
  return {
    id: 'c-full',
    accountId: 'a-full',
    name: 'Full',
    position: { x: 601.5, y: 0, z: 598.25 },
    health: 7,
    coins: 1234,
    skills,
    inventory,
    equipment: {
      weapon: { itemId: 'bronze_sword', quantity: 1 },
      arrows: { itemId: 'bronze_arrow', quantity: 40 },
    },
    bank: [{ itemId: 'tuna', quantity: 3 }],
    slices: sampleSlices(),
  };
}

describe('snapshot copies', () => {
  it('every slice registered in persistence/slices/index.ts has a sample value in the tests', () => {
    expect(Object.keys(SAMPLE_SLICES).sort()).toEqual(SLICES.map((s) => s.name).sort());
  });

  it('copyCharacter carries every field and every registered slice, sharing nothing with the original', () => {
    const live = fullCharacter();
    const snap = copyCharacter(live);
    for (const slice of SLICES) {
      expect(snap.slices?.[slice.name], `slice ${slice.name}`).toEqual(SAMPLE_SLICES[slice.name]);
    }
    expect(snap).toEqual(live);
    touchEveryLeaf(live);
    expect(snap).toEqual(fullCharacter());
  });

  it('copyCharacterInto turns a bare snapshot into the full character, every registered slice included', () => {
    const live = fullCharacter();
    const bare = copyCharacter({ ...fullCharacter(), slices: undefined });
    copyCharacterInto(bare, live);
    for (const slice of SLICES) {
      expect(bare.slices?.[slice.name], `slice ${slice.name}`).toEqual(SAMPLE_SLICES[slice.name]);
    }
    expect(bare).toEqual(live);
    touchEveryLeaf(live);
    expect(bare).toEqual(fullCharacter());
    // And back: a slice the live state no longer has is no longer in the snapshot.
    copyCharacterInto(bare, { ...fullCharacter(), slices: { prayer: { points: 1 } } });
    expect(bare.slices).toEqual({ prayer: { points: 1 } });
  });

  it('slice data is copied as data: a key named __proto__ is a key, a Date stays a Date', () => {
    const kills = JSON.parse('{"__proto__": 3, "boar": 2}') as Record<string, number>;
    const live: CharacterState = { ...fullCharacter(), slices: { npcKills: kills } };
    const fresh = copyCharacter(live);
    const refreshed = copyCharacter({ ...live, slices: { npcKills: { wolf: 1 } } });
    copyCharacterInto(refreshed, live);
    for (const snap of [fresh, refreshed]) {
      const copied = snap.slices?.npcKills as Record<string, number>;
      expect(Object.getPrototypeOf(copied)).toBe(Object.prototype);
      expect(Object.entries(copied).sort()).toEqual([
        ['__proto__', 3],
        ['boar', 2],
      ]);
    }
    const when = new Date(1_900_000_000_000);
    expect(copyData({ when }).when).toEqual(when);
    expect(copyData({ when }).when).not.toBe(when);
  });

  it('copyCharacterInto turns any earlier snapshot into exactly a copy of the new state, sharing nothing', () => {
    fc.assert(
      fc.property(character, character, character, (before, between, now) => {
        // Refreshed tick after tick, as a moving player's waiting snapshot is.
        const snap = copyCharacter(before);
        copyCharacterInto(snap, between);
        expect(snap).toEqual(between);
        copyCharacterInto(snap, now);
        expect(snap).toEqual(now);
        expect(copyCharacter(now)).toEqual(now);
        // Nothing aliased: changing the live state afterwards leaves the snapshot alone.
        const expected = structuredClone(snap);
        touchEveryLeaf(now);
        expect(snap).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });
});
