import { z } from 'zod';
import { QUEST_STATUSES } from '../../../ecs/features/quests/index.ts';
import { clientEvent, command, serverEvent } from '../feature.ts';
import { id } from '../shared.ts';

/** Quests. */

const questView = {
  questId: z.string(),
  status: z.enum(QUEST_STATUSES),
  stageId: z.string(),
  progress: z.number().int().min(0),
  count: z.number().int().min(0),
};

export const questsClientEvents = {
  'quest:start': clientEvent({
    schema: z.object({ questId: id }),
    doc: 'Start a quest within 2 tiles of its start NPC (as its dialogue would): `TOO_FAR` elsewhere, `REQUIREMENT_NOT_MET` (message names it) when a required quest or skill level is missing or it is already completed, `BUSY` when already started, `INVENTORY_FULL` when its starting items do not fit.',
    translate: (base, p) => command({ ...base, type: 'questStart', questId: p.questId }),
  }),
  'quest:list': clientEvent({
    schema: z.object({}),
    doc: 'Ask for every quest of the world with your progress (answered `quest:list`).',
    translate: (base) => command({ ...base, type: 'questList' }),
  }),
} as const;

export const questsServerEvents = {
  'quest:update': serverEvent({
    schema: z.object(questView),
    doc: 'One quest changed: started, a stage counted (`progress` of `count`), a stage done (the next `stageId`), or completed (rewards given: `skill:xp`, `player:sync` with items and `questPoints`).',
    from: 'questUpdate',
  }),
  'quest:list': serverEvent({
    schema: z.object({
      quests: z.array(z.object({ ...questView, name: z.string() })),
      questPoints: z.number().int().min(0),
    }),
    doc: 'Answer to `quest:list`: every quest with its status, stage and progress, and your quest points.',
    from: 'questList',
  }),
} as const;
