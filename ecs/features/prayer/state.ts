import { defineState } from '../../core/feature.ts';

/** One player's prayer: points left, the active prayers (in activation order), the drain counter. */
export interface PrayerData {
  points: number;
  active: string[];
  /** Accumulated drain (drainEffect per tick of each active prayer) not yet turned into a lost point. */
  drain: number;
}

export const PRAYERS = defineState('prayer', () => new Map<string, PrayerData>());
