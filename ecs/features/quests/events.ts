/** The quests' events (added to core/events.ts's SimEventData) and their persisted state. */

export const QUEST_STATUSES = ['not_started', 'in_progress', 'completed'] as const;
export type QuestStatus = (typeof QUEST_STATUSES)[number];

export interface QuestView {
  questId: string;
  status: QuestStatus;
  /** The stage the player is at (the last stage once completed). */
  stageId: string;
  progress: number;
  count: number;
}

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
    questUpdate: QuestView;
    questList: { quests: (QuestView & { name: string })[]; questPoints: number };
  }
}

declare module '../../core/character-state.ts' {
  interface CharacterSlices {
    /** Quest progress and quest points (persistence slice `quests`). */
    quests: QuestSlice;
  }
}
