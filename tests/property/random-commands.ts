import fc from 'fast-check';
import { type CharacterState, INVENTORY_SLOTS, type ItemStack } from '../../ecs/core/character-state.ts';
import { newSkills } from '../../ecs/core/skills.ts';

/** The four players of the conservation property and the random commands it drives them with. */

export const N = 4;
export const HOME: [number, number][] = [
  [98, 100],
  [99, 100],
  [98, 101],
  [99, 101],
];
export const id = (i: number) => `p${i}`;
const one = (itemId: string): ItemStack => ({ itemId, quantity: 1 });

export function initial(i: number): CharacterState {
  const inv: (ItemStack | null)[] = Array.from({ length: INVENTORY_SLOTS }, () => null);
  const start: ItemStack[][] = [
    [one('bronze_sword'), { itemId: 'feather', quantity: 20 }, one('logs'), one('logs'), one('shrimp')],
    [one('wooden_shield'), one('bronze_2h'), { itemId: 'feather', quantity: 5 }, one('bones'), one('bones')],
    [one('logs'), one('logs'), one('steel_sword'), one('quest_medal'), one('logs')],
    [...Array.from({ length: 25 }, () => one('bones')), { itemId: 'feather', quantity: 1 }],
  ];
  start[i]?.forEach((s, k) => {
    inv[k] = s;
  });
  const banks: ItemStack[][] = [
    [
      { itemId: 'logs', quantity: 2 },
      { itemId: 'feather', quantity: 10 },
    ],
    [one('bronze_sword')],
    [],
    [{ itemId: 'shrimp', quantity: 4 }],
  ];
  const [x, z] = HOME[i] as [number, number];
  return {
    id: id(i),
    accountId: `a${i}`,
    name: `P${i}`,
    position: { x, y: 0, z },
    health: 100,
    coins: [100, 50, 0, 30][i] ?? 0,
    skills: newSkills(),
    inventory: inv,
    equipment: {},
    bank: banks[i] ?? [],
  };
}

const pid = fc.integer({ min: 0, max: N - 1 });
const slot = fc.integer({ min: -1, max: 28 });
const qty = fc.option(fc.integer({ min: -1, max: 25 }), { nil: undefined });
const items = fc.constantFrom('logs', 'feather', 'bones', 'bronze_sword', 'shrimp', 'coins', 'wooden_shield');

export type Act =
  | { t: 'req'; p: number; q: number }
  | { t: 'resp'; p: number; accept: boolean }
  | { t: 'add'; p: number; slot: number; qty: number | undefined }
  | { t: 'coins'; p: number; amount: number }
  | { t: 'remove'; p: number; tslot: number }
  | { t: 'accept'; p: number }
  | { t: 'cancel'; p: number }
  | { t: 'deposit'; p: number; slot: number; qty: number | undefined }
  | { t: 'withdraw'; p: number; item: string; qty: number | undefined }
  | { t: 'drop'; p: number; slot: number; qty: number | undefined }
  | { t: 'pickup'; p: number; g: number }
  | { t: 'use'; p: number; slot: number }
  | { t: 'unequip'; p: number; slot: string }
  | { t: 'move'; p: number }
  | { t: 'damage'; p: number }
  | { t: 'leave'; p: number }
  | { t: 'join'; p: number }
  /** The database commits (or refuses) a queued transaction; its txResult arrives now or later (deliver). */
  | { t: 'resolve'; k: number; ok: boolean; fail: boolean; now: boolean }
  | { t: 'deliver'; k: number }
  | { t: 'tick' }
  /** A whole negotiation in one go (request, answer, offers, four accepts), so completions are common. */
  | { t: 'deal'; p: number; q: number; mine: number[]; theirs: number[]; coins: number };

export const act: fc.Arbitrary<Act> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ t: fc.constant('req' as const), p: pid, q: pid }) },
  { weight: 4, arbitrary: fc.record({ t: fc.constant('resp' as const), p: pid, accept: fc.boolean() }) },
  { weight: 6, arbitrary: fc.record({ t: fc.constant('add' as const), p: pid, slot, qty }) },
  {
    weight: 2,
    arbitrary: fc.record({
      t: fc.constant('coins' as const),
      p: pid,
      amount: fc.integer({ min: -1, max: 120 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      t: fc.constant('remove' as const),
      p: pid,
      tslot: fc.integer({ min: 0, max: 3 }),
    }),
  },
  { weight: 8, arbitrary: fc.record({ t: fc.constant('accept' as const), p: pid }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('cancel' as const), p: pid }) },
  { weight: 3, arbitrary: fc.record({ t: fc.constant('deposit' as const), p: pid, slot, qty }) },
  { weight: 3, arbitrary: fc.record({ t: fc.constant('withdraw' as const), p: pid, item: items, qty }) },
  { weight: 3, arbitrary: fc.record({ t: fc.constant('drop' as const), p: pid, slot, qty }) },
  { weight: 3, arbitrary: fc.record({ t: fc.constant('pickup' as const), p: pid, g: fc.nat(20) }) },
  { weight: 3, arbitrary: fc.record({ t: fc.constant('use' as const), p: pid, slot }) },
  {
    weight: 1,
    arbitrary: fc.record({
      t: fc.constant('unequip' as const),
      p: pid,
      slot: fc.constantFrom('weapon', 'shield', 'x'),
    }),
  },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('move' as const), p: pid }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('damage' as const), p: pid }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('leave' as const), p: pid }) },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('join' as const), p: pid }) },
  {
    weight: 6,
    arbitrary: fc.record({
      t: fc.constant('resolve' as const),
      k: fc.nat(5),
      ok: fc.boolean(),
      fail: fc.boolean(),
      now: fc.boolean(),
    }),
  },
  { weight: 3, arbitrary: fc.record({ t: fc.constant('deliver' as const), k: fc.nat(5) }) },
  { weight: 1, arbitrary: fc.constant({ t: 'tick' as const }) },
  {
    weight: 4,
    arbitrary: fc.record({
      t: fc.constant('deal' as const),
      p: pid,
      q: pid,
      mine: fc.array(fc.nat(27), { maxLength: 3 }),
      theirs: fc.array(fc.nat(27), { maxLength: 3 }),
      coins: fc.nat(60),
    }),
  },
);
