import type { Skill } from './skills.ts';

/**
 * What a tick tells individual players, as domain events addressed by character id. net/ turns each
 * kind into its wire event (net/session/outbound.ts); the data is the wire payload, checked there. World state (entities, positions) is not an event: it is
 * replicated from components, and `player:sync` is built from the player's state when it is marked.
 */

export type SimErrorCode =
  | 'BAD_MESSAGE'
  | 'RATE_LIMITED'
  | 'TOO_FAR'
  | 'INVALID_TARGET'
  | 'INVALID_SLOT'
  | 'INTERFACE_BLOCKED'
  | 'REQUIREMENT_NOT_MET'
  | 'INVENTORY_FULL'
  | 'NOT_FOUND'
  | 'FORBIDDEN'
  | 'INVALID_QUANTITY'
  | 'BUSY'
  | 'INSUFFICIENT_FUNDS'
  | 'OUT_OF_STOCK'
  | 'UNTRADEABLE'
  | 'IN_COMBAT'
  | 'COOLDOWN'
  | 'LEVEL_TOO_LOW'
  | 'MISSING_TOOL'
  | 'MISSING_ITEMS';

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
