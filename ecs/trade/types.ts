/** A trade session (specification "Trade session"; contract §2.3). The trade feature owns this shape. */

export type TradeState = 'requested' | 'offer' | 'confirm' | 'completing';

export interface TradeOfferItem {
  tradeSlot: number;
  inventorySlot: number;
  itemId: string;
  quantity: number;
}

export interface TradeSide {
  characterId: string;
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
