import { defineState } from '../../core/feature.ts';

/** How near (Chebyshev tiles) the start NPC must be for `quest:start`. */
export const QUEST_START_RANGE = 2;

export interface QuestsState {
  /** Characters with a completed quest whose rewards wait until their items are not locked. */
  readonly rewardsDue: Set<string>;
}

export const QUESTS = defineState<QuestsState>('quests', () => ({ rewardsDue: new Set() }));
