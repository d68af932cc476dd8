import { z } from 'zod';
import {
  idSchema,
  itemAmountSchema,
  levelSchema,
  nonNegInt,
  posInt,
  skillLevelsSchema,
} from '../../ecs/core/faces/manifest-primitives.ts';
import { normalizeSkill } from '../../ecs/core/skills.ts';

/** quests.json and skill-unlocks.json. */

export const SKILL_UNLOCK_TYPES = ['item', 'ability', 'area', 'quest', 'activity'] as const;

export const skillUnlockSchema = z.object({
  level: levelSchema,
  description: z.string().min(1),
  type: z.enum(SKILL_UNLOCK_TYPES),
});

export const skillUnlocksFileSchema = z.object({
  skills: z.record(z.string(), z.array(skillUnlockSchema)).superRefine((skills, ctx) => {
    for (const name of Object.keys(skills)) {
      if (normalizeSkill(name) === undefined) {
        ctx.addIssue({ code: 'custom', path: [name], message: `unknown skill "${name}"` });
      }
    }
  }),
});

const stageSchema = z.object({
  id: z.string().min(1),
  type: z.enum(['dialogue', 'kill', 'gather', 'interact', 'deliver']),
  description: z.string().min(1),
  npcId: idSchema.optional(),
  target: idSchema.optional(),
  count: posInt.optional(),
});

export const questSchema = z.object({
  id: idSchema,
  name: z.string().min(1),
  description: z.string().min(1),
  difficulty: z.enum(['novice', 'intermediate', 'experienced', 'master']),
  questPoints: nonNegInt,
  replayable: z.boolean().default(false),
  requirements: z
    .object({ quests: z.array(idSchema).default([]), skills: skillLevelsSchema.default({}) })
    .optional(),
  startNpc: idSchema,
  stages: z.array(stageSchema).min(1),
  onStart: z.object({ items: z.array(itemAmountSchema).default([]) }).optional(),
  rewards: z.object({
    questPoints: nonNegInt.default(0),
    items: z.array(itemAmountSchema).default([]),
    xp: z.record(z.string(), z.number().min(0)).default({}),
  }),
});

/** quests.json is an object keyed by quest id. */
export const questsFileSchema = z.record(z.string(), questSchema).superRefine((quests, ctx) => {
  for (const [key, q] of Object.entries(quests)) {
    if (q.id !== key)
      ctx.addIssue({ code: 'custom', path: [key, 'id'], message: `id "${q.id}" differs from its key` });
  }
});

export type SkillUnlock = z.infer<typeof skillUnlockSchema>;
export type QuestDef = z.infer<typeof questSchema>;
