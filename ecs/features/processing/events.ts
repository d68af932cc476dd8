/** Why a batch of processing ended. */
export const PROCESSING_STOP_REASONS = [
  'done',
  'missing_items',
  'moved',
  'inventory_full',
  'interrupted',
] as const;
export type ProcessingStopReason = (typeof PROCESSING_STOP_REASONS)[number];

/** What a station offers (`player:action use`). */
export interface StationOffer {
  recipeId: string;
  kind: string;
  level: number;
}

/** The processing events (added to core/events.ts's SimEventData). */
declare module '../../core/events.ts' {
  interface SimEventData {
    processingStart: { recipeId: string; quantity: number };
    processingStop: { recipeId: string; made: number; reason: ProcessingStopReason };
    stationOpen: { targetId: string; stationType: string; recipes: StationOffer[] };
  }
}
