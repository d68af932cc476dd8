import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type CharacterState,
  EQUIP_SLOTS,
  INVENTORY_SLOTS,
  type ItemStack,
} from '../../ecs/core/character-state.ts';
import { SKILLS } from '../../ecs/core/skills.ts';
import { copyCharacter, copyCharacterInto } from '../../persistence/save-scheduler.ts';

/**
 * The save scheduler refreshes a waiting snapshot in place (a moving player is dirty every tick):
 * the result must be exactly a fresh copy, sharing nothing with the live state.
 */

const stack = fc.record({
  itemId: fc.constantFrom('logs', 'coins', 'bronze_sword', 'tuna'),
  quantity: fc.nat(1e6),
});

const character: fc.Arbitrary<CharacterState> = fc.record({
  id: fc.constant('c1'),
  accountId: fc.string({ minLength: 1, maxLength: 8 }),
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
});

describe('copyCharacterInto', () => {
  it('turns any earlier snapshot into exactly a fresh copy of the new state, sharing nothing with it', () => {
    fc.assert(
      fc.property(character, character, (before, now) => {
        const snap = copyCharacter(before);
        copyCharacterInto(snap, now);
        expect(snap).toEqual(copyCharacter(now));
        // Nothing aliased: changing the live state afterwards leaves the snapshot alone.
        const expected = structuredClone(snap);
        now.position.x += 1;
        for (const s of now.inventory) if (s) s.quantity += 1;
        for (const s of now.bank) s.quantity += 1;
        for (const s of Object.values(now.equipment) as ItemStack[]) s.itemId = 'changed';
        now.skills.attack.xp += 1;
        expect(snap).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });
});
