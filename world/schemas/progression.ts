import { z } from 'zod';
import { levelSchema } from '../../ecs/core/faces/manifest-primitives.ts';
import { normalizeSkill } from '../../ecs/core/skills.ts';

/** skill-unlocks.json. */

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

export type SkillUnlock = z.infer<typeof skillUnlockSchema>;
