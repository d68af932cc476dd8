import { defineState } from '../../core/feature.ts';

/** A batch in progress. */
export interface Maker {
  /** Index of the recipe in content.recipes. */
  recipe: number;
  /** The station used (eid), or -1 where the recipe needs none. */
  station: number;
  quantity: number;
  made: number;
  /** Tick the next item is done. */
  nextTick: number;
}

export interface ProcessingState {
  /** Batches by character id. */
  readonly makers: Map<string, Maker>;
  /** Uses left of an opened consumable (thread), by `characterId:itemId`. */
  readonly usesLeft: Map<string, number>;
}

export const PROCESSING = defineState<ProcessingState>('processing', () => ({
  makers: new Map(),
  usesLeft: new Map(),
}));

/** Reach to a station (Chebyshev tiles). */
export const STATION_REACH = 1;
/** Largest batch of one `skill:make`. */
export const MAX_QUANTITY = 28;
