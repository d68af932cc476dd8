import { z } from 'zod';
import { id, itemStack, MAX_INT, quantity, slot } from '../../core/faces/primitives.ts';
import { clientEvent, command, defineWire, serverEvent } from '../../core/faces/wire.ts';

/** The trade's wire face: request, offer screen, confirmation screen, swap; the `trade` verb. */

/** One side's offer as both traders see it. */
export const tradeOffer = z.object({
  items: z.array(
    z.object({
      tradeSlot: z.number().int(),
      inventorySlot: z.number().int(),
      itemId: z.string(),
      quantity: z.number().int().positive(),
    }),
  ),
  coins: z.number().int().min(0),
  accepted: z.boolean(),
});

/** The codes of `trade:error`. */
export const TRADE_ERROR_CODES = [
  'NOT_FOUND',
  'NOT_PARTICIPANT',
  'WRONG_STATE',
  'TOO_FAR',
  'SELF_TRADE',
  'TARGET_OFFLINE',
  'PLAYER_BUSY',
  'INVALID_SLOT',
  'INVALID_QUANTITY',
  'UNTRADEABLE',
  'INVENTORY_FULL',
  'RATE_LIMITED',
  'FAILED',
] as const;

/** Why a trade ended without completing (`trade:cancelled`). */
export const TRADE_CANCEL_REASONS = [
  'declined',
  'cancelled',
  'expired',
  'disconnected',
  'moved',
  'died',
  'failed',
] as const;

export const tradeIncoming = z.object({
  tradeId: z.string(),
  fromPlayerId: z.string(),
  fromPlayerName: z.string(),
  fromPlayerLevel: z.number().int(),
});
export const tradeStarted = z.object({
  tradeId: z.string(),
  partnerId: z.string(),
  partnerName: z.string(),
  partnerLevel: z.number().int(),
  partnerFreeSlots: z.number().int(),
});
export const tradeUpdated = z.object({
  tradeId: z.string(),
  myOffer: tradeOffer,
  theirOffer: tradeOffer,
  partnerFreeSlots: z.number().int(),
});
export const tradeConfirmScreen = z.object({
  tradeId: z.string(),
  myOffer: tradeOffer,
  theirOffer: tradeOffer,
  values: z.object({ myOffer: z.number(), theirOffer: z.number() }),
});
export const tradeCompleted = z.object({ tradeId: z.string(), receivedItems: z.array(itemStack) });
export const tradeCancelled = z.object({ tradeId: z.string(), reason: z.enum(TRADE_CANCEL_REASONS) });
export const tradeError = z.object({
  tradeId: z.string().optional(),
  code: z.enum(TRADE_ERROR_CODES),
  message: z.string(),
});

export const tradeWire = defineWire({
  client: {
    tradeRequest: clientEvent({
      schema: z.object({ targetPlayerId: id }),
      doc: 'Ask a player within 2 tiles to trade. A player in the world but out of your view is `tradeError` `NOT_FOUND` (checked before whether it is busy or near); one not in the world is `TARGET_OFFLINE`.',
      translate: (base, p) => command({ ...base, type: 'tradeRequest', targetPlayerId: p.targetPlayerId }),
    }),
    tradeRequestRespond: clientEvent({
      schema: z.object({ tradeId: id, accept: z.boolean() }),
      doc: 'Accept or decline an incoming trade request.',
      translate: (base, p) =>
        command({ ...base, type: 'tradeRespond', tradeId: p.tradeId, accept: p.accept }),
    }),
    tradeAddItem: clientEvent({
      schema: z.union([
        z.object({ tradeId: id, coins: z.number().int().min(0).max(MAX_INT) }),
        z.object({ tradeId: id, inventorySlot: slot, quantity: quantity.optional() }),
      ]),
      doc: 'Offer an inventory slot (quantity defaults to the whole stack), or set the offered coins with `{tradeId, coins}`.',
      translate: (base, p) =>
        'coins' in p
          ? command({ ...base, type: 'tradeSetCoins', tradeId: p.tradeId, coins: p.coins })
          : command({
              ...base,
              type: 'tradeAddItem',
              tradeId: p.tradeId,
              inventorySlot: p.inventorySlot,
              quantity: p.quantity,
            }),
    }),
    tradeRemoveItem: clientEvent({
      schema: z.object({ tradeId: id, tradeSlot: z.number().int().min(0).max(27) }),
      doc: 'Take an entry off your offer by its trade slot.',
      translate: (base, p) =>
        command({ ...base, type: 'tradeRemoveItem', tradeId: p.tradeId, tradeSlot: p.tradeSlot }),
    }),
    tradeAccept: clientEvent({
      schema: z.object({ tradeId: id }),
      doc: 'Accept the current trade screen.',
      translate: (base, p) => command({ ...base, type: 'tradeAccept', tradeId: p.tradeId }),
    }),
    tradeCancel: clientEvent({
      schema: z.object({ tradeId: id }),
      doc: 'Cancel the trade.',
      translate: (base, p) => command({ ...base, type: 'tradeCancel', tradeId: p.tradeId }),
    }),
  },
  server: {
    tradeIncoming: serverEvent({
      schema: tradeIncoming,
      doc: 'Someone asks you to trade.',
      from: 'tradeIncoming',
    }),
    tradeStarted: serverEvent({
      schema: tradeStarted,
      doc: 'The request was accepted: the offer screen opens for both players.',
      from: 'tradeStarted',
    }),
    tradeUpdated: serverEvent({
      schema: tradeUpdated,
      doc: 'An offer or an accept changed (offer screen). Offers are relative to the receiver.',
      from: 'tradeUpdated',
    }),
    tradeConfirmScreen: serverEvent({
      schema: tradeConfirmScreen,
      doc: 'Both accepted the offer screen: the confirmation screen, with total values of each offer.',
      from: 'tradeConfirmScreen',
    }),
    tradeCompleted: serverEvent({
      schema: tradeCompleted,
      doc: 'The items were swapped in one database transaction; what you received.',
      from: 'tradeCompleted',
    }),
    tradeCancelled: serverEvent({
      schema: tradeCancelled,
      doc: 'The trade ended without a swap, with the reason.',
      from: 'tradeCancelled',
    }),
    tradeError: serverEvent({
      schema: tradeError,
      doc: 'A trade command was refused, or the completion failed.',
      from: 'tradeError',
    }),
  },
  verbs: { trade: 'a player (reach 2; = `trade:request`)' },
});
