import type { ItemStack } from '../../core/character-state.ts';

/** The trade feature's events (added to core/events.ts's SimEventData). */

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
export type TradeErrorCode = (typeof TRADE_ERROR_CODES)[number];

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
export type TradeCancelReason = (typeof TRADE_CANCEL_REASONS)[number];

export interface TradeOfferView {
  items: { tradeSlot: number; inventorySlot: number; itemId: string; quantity: number }[];
  coins: number;
  accepted: boolean;
}

declare module '../../core/events.ts' {
  interface SimEventData {
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
}
