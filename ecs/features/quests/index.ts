/** What other features may use of the quests. */

export {
  QUEST_STATUSES,
  type QuestProgress,
  type QuestSlice,
  type QuestStatus,
  type QuestView,
} from './events.ts';
export { quests } from './feature.ts';
export { questPoints, questStatusFor, startQuest, talkedTo } from './quests.ts';
