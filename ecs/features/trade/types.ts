import { defineState } from '../../core/feature.ts';
import type { GameWorld } from '../../core/world.ts';

/** A trade session between two players. The trade feature owns this shape. */

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

/** The trades of a world, and which trade each character is in (from its request to its end). */
export interface TradeTable {
  readonly byId: Map<string, Trade>;
  readonly byCharacter: Map<string, string>;
  /** Trades started so far: ids are `trade-<n>`. */
  made: number;
}

export const TRADES = defineState<TradeTable>('trades', () => ({
  byId: new Map(),
  byCharacter: new Map(),
  made: 0,
}));

/** The id of the trade a character is in, or null. */
export function tradeIdOf(world: GameWorld, characterId: string): string | null {
  return world.get(TRADES).byCharacter.get(characterId) ?? null;
}
