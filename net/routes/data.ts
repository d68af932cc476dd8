import { z } from 'zod';
import { SKILLS } from '../../ecs/core/skills.ts';
import type { ContentRegistry } from '../../world/registry.ts';
import { SKILL_UNLOCK_TYPES } from '../../world/schemas/progression.ts';
import type { RouteDef } from '../http/types.ts';

/** GET /api/data/skill-unlocks (contract §3.5): public; a key for each of the 17 skills, `defense` spelled so. */

const unlockSchema = z.object({
  level: z.number().int().min(1).max(99),
  description: z.string().min(1),
  type: z.enum(SKILL_UNLOCK_TYPES),
});
export const skillUnlockMapSchema = z.object(
  Object.fromEntries(SKILLS.map((s) => [s, z.array(unlockSchema)])) as Record<
    (typeof SKILLS)[number],
    z.ZodArray<typeof unlockSchema>
  >,
);
export type SkillUnlockMap = z.infer<typeof skillUnlockMapSchema>;

export function dataRoutes(registry: ContentRegistry): RouteDef[] {
  // Built and checked once: content is immutable for the life of the process.
  const body: SkillUnlockMap = skillUnlockMapSchema.parse(
    Object.fromEntries(
      SKILLS.map((s) => [
        s,
        registry.skillUnlocks[s].map((u) => ({ level: u.level, description: u.description, type: u.type })),
      ]),
    ),
  );
  return [
    {
      method: 'GET',
      path: '/api/data/skill-unlocks',
      auth: 'none',
      rateLimit: 'rest',
      handler: () => ({ status: 200, body }),
    },
  ];
}
