import type { z } from 'zod';
import type {
  PROCESSING_STOP_REASONS,
  processingStart,
  processingStop,
  stationOffer,
  stationOpen,
} from './wire.ts';

/** Why a batch of processing ended. */
export type ProcessingStopReason = (typeof PROCESSING_STOP_REASONS)[number];

/** What a station offers (`player:action use`). */
export type StationOffer = z.output<typeof stationOffer>;

/** The processing events (added to core/events.ts's SimEventData), typed by their wire schemas. */
declare module '../../core/events.ts' {
  interface SimEventData {
    processingStart: z.output<typeof processingStart>;
    processingStop: z.output<typeof processingStop>;
    stationOpen: z.output<typeof stationOpen>;
  }
}
