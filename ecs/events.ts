import type { ItemStack } from './character-state.ts';
import type { Skill } from './skills.ts';

/**
 * What a tick tells individual players, as domain events addressed by character id. net/ turns each
 * kind into its wire event (net/session/outbound.ts); the data fields match the wire payloads of
 * contract §2 so that mapping stays a table. World state (entities, positions) is not an event: it is
 * replicated from components, and `player:sync` is built from the player's state when it is marked.
 */

export type SimErrorCode =
  | 'BAD_MESSAGE'
  | 'TOO_FAR'
  | 'INVALID_TARGET'
  | 'INVALID_SLOT'
  | 'INTERFACE_BLOCKED'
  | 'REQUIREMENT_NOT_MET'
  | 'INVENTORY_FULL'
  | 'NOT_FOUND'
  | 'FORBIDDEN'
  | 'INVALID_QUANTITY'
  | 'BUSY';

export type TradeErrorCode =
  | 'NOT_FOUND'
  | 'NOT_PARTICIPANT'
  | 'WRONG_STATE'
  | 'TOO_FAR'
  | 'SELF_TRADE'
  | 'TARGET_OFFLINE'
  | 'PLAYER_BUSY'
  | 'INVALID_SLOT'
  | 'INVALID_QUANTITY'
  | 'UNTRADEABLE'
  | 'INVENTORY_FULL'
  | 'RATE_LIMITED'
  | 'FAILED';

export type TradeCancelReason =
  | 'declined'
  | 'cancelled'
  | 'expired'
  | 'disconnected'
  | 'moved'
  | 'died'
  | 'failed';

export interface TradeOfferView {
  items: { tradeSlot: number; inventorySlot: number; itemId: string; quantity: number }[];
  coins: number;
  accepted: boolean;
}

export interface SimEventData {
  error: { code: SimErrorCode; message: string; event: string | null };
  chat: { fromId: string; fromName: string; message: string; channel: 'local' | 'private' | 'system' };
  skillXp: { skill: Skill; xp: number; gained: number; level: number };
  combatHit: { attackerId: string; targetId: string; damage: number; targetHealth: number; tick: number };
  bankUpdate: { items: ItemStack[] };
  tradeIncoming: { tradeId: string; fromPlayerId: string; fromPlayerName: string; fromPlayerLevel: number };
  tradeStarted: {
    tradeId: string;
    partnerId: string;
    partnerName: string;
    partnerLevel: number;
    partnerFreeSlots: number;
  };
  tradeUpdated: {
    tradeId: string;
    myOffer: TradeOfferView;
    theirOffer: TradeOfferView;
    partnerFreeSlots: number;
  };
  tradeConfirmScreen: {
    tradeId: string;
    myOffer: TradeOfferView;
    theirOffer: TradeOfferView;
    values: { myOffer: number; theirOffer: number };
  };
  tradeCompleted: { tradeId: string; receivedItems: ItemStack[] };
  tradeCancelled: { tradeId: string; reason: TradeCancelReason };
  tradeError: { tradeId?: string; code: TradeErrorCode; message: string };
}

export type SimEventKind = keyof SimEventData;

export type SimEvent = { [K in SimEventKind]: { to: string; kind: K; data: SimEventData[K] } }[SimEventKind];
