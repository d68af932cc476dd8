import type { z } from 'zod';
import type { QUEST_STATUSES, questList, questUpdate } from './wire.ts';

/** The quests' events (added to core/events.ts's SimEventData, typed by their wire schemas) and their persisted state. */

export type QuestStatus = (typeof QUEST_STATUSES)[number];

/** One quest as a player sees it: status, the stage it is at (the last once completed), progress. */
export type QuestView = z.output<typeof questUpdate>;

/** One quest of one character, as saved. Quests absent from the record are not started. */
export interface QuestProgress {
  status: 'in_progress' | 'completed';
  /** Index into the quest's stages; equal to their number while the rewards wait for a free moment. */
  stage: number;
  progress: number;
}

export interface QuestSlice {
  points: number;
  quests: Record<string, QuestProgress>;
}

declare module '../../core/events.ts' {
  interface SimEventData {
    questUpdate: z.output<typeof questUpdate>;
    questList: z.output<typeof questList>;
  }
}

declare module '../../core/character-state.ts' {
  interface CharacterSlices {
    /** Quest progress and quest points (persistence slice `quests`). */
    quests: QuestSlice;
  }
}
