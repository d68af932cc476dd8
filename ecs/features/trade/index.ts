/** What other features and adapters may use of trades. */

export type { TradeCancelReason, TradeErrorCode, TradeOfferView } from './events.ts';
export { trade } from './feature.ts';
export { TRADES, type Trade, tradeIdOf } from './types.ts';
