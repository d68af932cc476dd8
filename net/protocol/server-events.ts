import { z } from 'zod';
import { EQUIP_SLOTS } from '../../ecs/character-state.ts';
import { SKILLS } from '../../ecs/skills.ts';

/**
 * Server-to-client events (contract §1, §2) with their payload schemas. Payloads are built in net/
 * from tick outcomes; tests parse what they receive with these schemas.
 */

const itemStack = z.object({ itemId: z.string(), quantity: z.number().int().positive() });
const skillValue = z.object({ level: z.number().int(), xp: z.number() });

export const entityType = z.enum(['player', 'npc', 'item', 'resource']);

/** One entity in world:update: id, type, tile, plus the public fields of its type. */
export const wireEntity = z
  .object({
    id: z.string(),
    type: entityType,
    x: z.number().int(),
    z: z.number().int(),
    name: z.string().optional(),
    /** player: combat level; npc: its level. */
    level: z.number().int().optional(),
    health: z.number().optional(),
    maxHealth: z.number().optional(),
    /** Whether it is walking (1) or running (2) this tick; 0 or absent when still. */
    moving: z.number().int().min(0).max(2).optional(),
    npcId: z.string().optional(),
    itemId: z.string().optional(),
    quantity: z.number().int().optional(),
    resourceId: z.string().optional(),
    kind: z.string().optional(),
    depleted: z.boolean().optional(),
  })
  .loose();

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

export const errorCodes = [
  'BAD_MESSAGE',
  'RATE_LIMITED',
  'NOT_AUTHENTICATED',
  'TOO_FAR',
  'INVALID_TARGET',
  'INVALID_SLOT',
  'INTERFACE_BLOCKED',
  'REQUIREMENT_NOT_MET',
  'INVENTORY_FULL',
  'NOT_FOUND',
  'FORBIDDEN',
  'INVALID_QUANTITY',
  'BUSY',
  'INTERNAL',
] as const;
export type ErrorCode = (typeof errorCodes)[number];

export const tradeErrorCodes = [
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
export type TradeErrorCode = (typeof tradeErrorCodes)[number];

export const tradeCancelReasons = [
  'declined',
  'cancelled',
  'expired',
  'disconnected',
  'moved',
  'died',
  'failed',
] as const;

export const serverEvents = {
  authResult: z.union([
    z.object({
      success: z.literal(true),
      accountId: z.string(),
      characterId: z.string(),
      anonymous: z.boolean(),
      sessionToken: z.string(),
    }),
    z.object({ success: z.literal(false), error: z.string() }),
  ]),
  'player:sync': z.object({
    id: z.string(),
    name: z.string(),
    position: z.object({ x: z.number(), y: z.number(), z: z.number() }),
    health: z.number(),
    maxHealth: z.number(),
    combatLevel: z.number().int(),
    coins: z.number().int().min(0),
    skills: z.object(
      Object.fromEntries(SKILLS.map((s) => [s, skillValue])) as Record<
        (typeof SKILLS)[number],
        typeof skillValue
      >,
    ),
    inventory: z.array(itemStack.nullable()).length(28),
    equipment: z.object(
      Object.fromEntries(EQUIP_SLOTS.map((s) => [s, itemStack.nullable()])) as Record<
        (typeof EQUIP_SLOTS)[number],
        ReturnType<typeof itemStack.nullable>
      >,
    ),
  }),
  'world:update': z.object({
    tick: z.number().int(),
    entities: z.array(wireEntity),
    removed: z.array(z.string()),
  }),
  'combat:hit': z.object({
    attackerId: z.string(),
    targetId: z.string(),
    damage: z.number().int(),
    targetHealth: z.number(),
    tick: z.number().int(),
  }),
  'skill:xp': z.object({
    skill: z.enum(SKILLS),
    xp: z.number(),
    gained: z.number(),
    level: z.number().int(),
  }),
  'chat:message': z.object({
    fromId: z.string(),
    fromName: z.string(),
    message: z.string(),
    channel: z.enum(['local', 'private', 'system']),
    timestamp: z.number().int(),
  }),
  'bank:update': z.object({ items: z.array(itemStack) }),
  error: z.object({ code: z.enum(errorCodes), message: z.string(), event: z.string().nullable() }),
  tradeIncoming: z.object({
    tradeId: z.string(),
    fromPlayerId: z.string(),
    fromPlayerName: z.string(),
    fromPlayerLevel: z.number().int(),
  }),
  tradeStarted: z.object({
    tradeId: z.string(),
    partnerId: z.string(),
    partnerName: z.string(),
    partnerLevel: z.number().int(),
    partnerFreeSlots: z.number().int(),
  }),
  tradeUpdated: z.object({
    tradeId: z.string(),
    myOffer: tradeOffer,
    theirOffer: tradeOffer,
    partnerFreeSlots: z.number().int(),
  }),
  tradeConfirmScreen: z.object({
    tradeId: z.string(),
    myOffer: tradeOffer,
    theirOffer: tradeOffer,
    values: z.object({ myOffer: z.number(), theirOffer: z.number() }),
  }),
  tradeCompleted: z.object({ tradeId: z.string(), receivedItems: z.array(itemStack) }),
  tradeCancelled: z.object({ tradeId: z.string(), reason: z.enum(tradeCancelReasons) }),
  tradeError: z.object({
    tradeId: z.string().optional(),
    code: z.enum(tradeErrorCodes),
    message: z.string(),
  }),
} as const;

export type ServerEventName = keyof typeof serverEvents;
export type ServerPayload<E extends ServerEventName> = z.output<(typeof serverEvents)[E]>;
