import type { Skill } from './skills.ts';

/**
 * What a tick tells individual players, as domain events addressed by character id. net/ turns each
 * kind into its wire event (net/session/outbound.ts); the data is the wire payload, checked there. World state (entities, positions) is not an event: it is
 * replicated from components, and `player:sync` is built from the player's state when it is marked.
 */

/** The codes of the `error` event, the one list (the wire's enum is this array). */
export const ERROR_CODES = [
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
  'INSUFFICIENT_FUNDS',
  'OUT_OF_STOCK',
  'UNTRADEABLE',
  'IN_COMBAT',
  'COOLDOWN',
  'LEVEL_TOO_LOW',
  'MISSING_TOOL',
  'MISSING_ITEMS',
  'INTERNAL',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/**
 * The codes a tick may send: the others belong to the connection (login) and the server. RATE_LIMITED is
 * both: the connection's message rate, and a rule the simulation keeps (private messages per sender).
 */
export type SimErrorCode = Exclude<ErrorCode, 'NOT_AUTHENTICATED' | 'INTERNAL'>;

/**
 * Each event kind's data, by kind. Core declares the kinds every feature may send; each feature adds its
 * own in its `events.ts` by augmenting this interface. net/session/outbound.ts maps every kind to its
 * wire event and checks at compile time that the data is exactly the wire payload's type.
 */
export interface SimEventData {
  error: { code: SimErrorCode; message: string; event: string | null };
  skillXp: { skill: Skill; xp: number; gained: number; level: number };
}

export type SimEventKind = keyof SimEventData;

export type SimEvent = { [K in SimEventKind]: { to: string; kind: K; data: SimEventData[K] } }[SimEventKind];
