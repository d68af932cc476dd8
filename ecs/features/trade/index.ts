/** What other features and adapters may use of trades. */

export {
  TRADE_CANCEL_REASONS,
  TRADE_ERROR_CODES,
  type TradeCancelReason,
  type TradeErrorCode,
  type TradeOfferView,
} from './events.ts';
export { trade } from './feature.ts';
export { TRADES, type Trade, tradeIdOf } from './types.ts';
