/** A trade session (specification "Trade session"; contract §2.3). The trade feature owns this shape. */

/** requested: sent, unanswered. offer: screen 1. confirm: screen 2. completing: the swap is in the database. */
export type TradeState = 'requested' | 'offer' | 'confirm' | 'completing';

export interface TradeOfferItem {
  /** Position in the offer list (0..), renumbered when an entry is removed. */
  tradeSlot: number;
  inventorySlot: number;
  itemId: string;
  quantity: number;
}

export interface TradeSide {
  characterId: string;
  /** At most one entry per inventory slot: offering a slot again adds to its entry. */
  items: TradeOfferItem[];
  coins: number;
  accepted: boolean;
}

export interface Trade {
  id: string;
  state: TradeState;
  /** Tick of the request, for the 30 s expiry of an unanswered one. */
  requestedTick: number;
  initiator: TradeSide;
  recipient: TradeSide;
  /** Id of the item transaction while completing. */
  txId: string | null;
}

/** Seconds an unanswered request lives. */
export const TRADE_REQUEST_SECONDS = 30;
/** Chebyshev distance both players must be within to start a trade. */
export const TRADE_RANGE = 2;
