/** Why a batch of processing ended. */
export type ProcessingStopReason = 'done' | 'missing_items' | 'moved' | 'inventory_full' | 'interrupted';

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
