import { z } from 'zod';
import { id } from '../../core/faces/primitives.ts';
import { clientEvent, command, defineWire, serverEvent } from '../../core/faces/wire.ts';

/** The quests' wire face. */

/** How far a player is in a quest. */
export const QUEST_STATUSES = ['not_started', 'in_progress', 'completed'] as const;

const questView = {
  questId: z.string(),
  status: z.enum(QUEST_STATUSES),
  stageId: z.string(),
  progress: z.number().int().min(0),
  count: z.number().int().min(0),
};

export const questUpdate = z.object(questView);
export const questList = z.object({
  quests: z.array(z.object({ ...questView, name: z.string() })),
  questPoints: z.number().int().min(0),
});

export const questsWire = defineWire({
  client: {
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
  },
  server: {
    'quest:update': serverEvent({
      schema: questUpdate,
      doc: 'One quest changed: started, a stage counted (`progress` of `count`), a stage done (the next `stageId`), or completed (rewards given: `skill:xp`, `player:sync` with items and `questPoints`).',
      from: 'questUpdate',
    }),
    'quest:list': serverEvent({
      schema: questList,
      doc: 'Answer to `quest:list`: every quest with its status, stage and progress, and your quest points.',
      from: 'questList',
    }),
  },
});
