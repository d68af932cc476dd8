/** What other features may use of the quests. */

export type { QuestProgress, QuestSlice, QuestStatus, QuestView } from './events.ts';
export { quests } from './feature.ts';
export { questPoints, questStatusFor, startQuest, talkedTo } from './quests.ts';
