import { z } from 'zod';

/**
 * Client-to-server events (contract §1.2, §2.1, §2.3) with their payload schemas. The only place these
 * shapes are defined; docs/protocol.md is generated from this module (npm run docs:protocol).
 */

const MAX_INT = 2_147_483_647;
const slot = z.number().int().min(0).max(27);
const coord = z.number().int().min(-1_000_000).max(1_000_000);
const id = z.string().min(1).max(128);
const quantity = z.number().int().min(1).max(MAX_INT);

export const clientEvents = {
  authenticate: z.object({
    authToken: z.string().min(1).max(8192).optional(),
    characterId: id.optional(),
    name: z.string().min(1).max(64).optional(),
  }),
  'player:move': z.union([
    z.object({ cancel: z.literal(true) }),
    z.object({ x: coord, z: coord, run: z.boolean().optional() }),
  ]),
  'player:action': z.object({
    action: z.enum(['attack', 'gather', 'talk', 'pickup', 'trade', 'bank', 'shop']),
    targetId: id,
  }),
  'player:chat': z.object({
    message: z.string().max(4096),
    to: z.string().min(1).max(64).optional(),
  }),
  'inventory:use': z.object({ slot, targetSlot: slot.optional(), targetId: id.optional() }),
  /** Project extension: drop (part of) a stack to the ground. */
  'inventory:drop': z.object({ slot, quantity: quantity.optional() }),
  /** Project extension: move an item between two inventory slots (swap). */
  'inventory:move': z.object({ from: slot, to: slot }),
  /** Project extension: take off a worn item into the inventory. */
  'equipment:unequip': z.object({ slot: z.string().min(1).max(32) }),
  'bank:deposit': z.object({ slot, quantity: quantity.optional() }),
  'bank:withdraw': z.object({ itemId: id, quantity: quantity.optional() }),
  tradeRequest: z.object({ targetPlayerId: id }),
  tradeRequestRespond: z.object({ tradeId: id, accept: z.boolean() }),
  tradeAddItem: z.union([
    z.object({ tradeId: id, coins: z.number().int().min(0).max(MAX_INT) }),
    z.object({ tradeId: id, inventorySlot: slot, quantity: quantity.optional() }),
  ]),
  tradeRemoveItem: z.object({ tradeId: id, tradeSlot: z.number().int().min(0).max(27) }),
  tradeAccept: z.object({ tradeId: id }),
  tradeCancel: z.object({ tradeId: id }),
} as const;

export type ClientEventName = keyof typeof clientEvents;
export type ClientPayload<E extends ClientEventName> = z.output<(typeof clientEvents)[E]>;

/** A decoded, validated client message. */
export type ClientMessage = {
  [E in ClientEventName]: { event: E; payload: ClientPayload<E> };
}[ClientEventName];

export function isClientEventName(name: string): name is ClientEventName {
  return Object.hasOwn(clientEvents, name);
}
