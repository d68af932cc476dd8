import { z } from 'zod';
import { id, itemStack, quantity, slot } from '../../core/faces/primitives.ts';
import { clientEvent, command, defineWire, serverEvent } from '../../core/faces/wire.ts';

/** The bank's wire face. */

export const bankUpdate = z.object({ items: z.array(itemStack) });

export const bankWire = defineWire({
  client: {
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
  },
  server: {
    'bank:update': serverEvent({
      schema: bankUpdate,
      doc: "The player's bank contents, after opening the bank or any deposit or withdrawal.",
      from: 'bankUpdate',
    }),
  },
  verbs: { bank: 'on a bank booth station or a banker NPC (reach 1; opens it: `bank:update`)' },
});
