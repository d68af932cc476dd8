import { z } from 'zod';
import { clientEvent, command, serverEvent } from '../feature.ts';
import { id, itemStack, quantity, slot } from '../shared.ts';

/** The bank. */

export const bankClientEvents = {
  'bank:deposit': clientEvent({
    schema: z.object({ slot, quantity: quantity.optional() }),
    doc: 'Within 2 tiles of a bank: deposit a slot (quantity defaults to the whole stack).',
    translate: (base, p) => command({ ...base, type: 'bankDeposit', slot: p.slot, quantity: p.quantity }),
  }),
  'bank:withdraw': clientEvent({
    schema: z.object({ itemId: id, quantity: quantity.optional() }),
    doc: 'Within 2 tiles of a bank: withdraw an item id (quantity defaults to all of it that fits).',
    translate: (base, p) =>
      command({ ...base, type: 'bankWithdraw', itemId: p.itemId, quantity: p.quantity }),
  }),
} as const;

export const bankServerEvents = {
  'bank:update': serverEvent({
    schema: z.object({ items: z.array(itemStack) }),
    doc: "The player's bank contents, after opening the bank or any deposit or withdrawal.",
    from: 'bankUpdate',
  }),
} as const;
