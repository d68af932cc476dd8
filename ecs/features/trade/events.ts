import type { ItemStack } from '../../core/character-state.ts';

/** The trade feature's events (added to core/events.ts's SimEventData). */

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
