import type { z } from 'zod';
import type {
  TRADE_CANCEL_REASONS,
  TRADE_ERROR_CODES,
  tradeCancelled,
  tradeCompleted,
  tradeConfirmScreen,
  tradeError,
  tradeIncoming,
  tradeOffer,
  tradeStarted,
  tradeUpdated,
} from './wire.ts';

/** The trade feature's events (added to core/events.ts's SimEventData), typed by their wire schemas. */

export type TradeErrorCode = (typeof TRADE_ERROR_CODES)[number];
export type TradeCancelReason = (typeof TRADE_CANCEL_REASONS)[number];

/** One side's offer as both traders see it. */
export type TradeOfferView = z.output<typeof tradeOffer>;

declare module '../../core/events.ts' {
  interface SimEventData {
    tradeIncoming: z.output<typeof tradeIncoming>;
    tradeStarted: z.output<typeof tradeStarted>;
    tradeUpdated: z.output<typeof tradeUpdated>;
    tradeConfirmScreen: z.output<typeof tradeConfirmScreen>;
    tradeCompleted: z.output<typeof tradeCompleted>;
    tradeCancelled: z.output<typeof tradeCancelled>;
    tradeError: z.output<typeof tradeError>;
  }
}
