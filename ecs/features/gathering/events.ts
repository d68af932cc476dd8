import type { z } from 'zod';
import type { GATHERING_STOP_REASONS, gatheringStart, gatheringStop } from './wire.ts';

/** Why gathering stopped. */
export type GatheringStopReason = (typeof GATHERING_STOP_REASONS)[number];

/** The gathering events (added to core/events.ts's SimEventData), typed by their wire schemas. */
declare module '../../core/events.ts' {
  interface SimEventData {
    gatheringStart: z.output<typeof gatheringStart>;
    gatheringStop: z.output<typeof gatheringStop>;
  }
}
