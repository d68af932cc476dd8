import { z } from 'zod';
import { EQUIP_SLOTS } from '../../ecs/core/character-state.ts';
import { idSchema, levelSchema, nonNegInt, posInt } from '../../ecs/core/faces/manifest-primitives.ts';
import { normalizeSkill } from '../../ecs/core/skills.ts';

/** items.json or items/*.json: every file is an array of item definitions. */

export const ITEM_TYPES = [
  'weapon',
  'armor',
  'tool',
  'resource',
  'consumable',
  'food',
  'junk',
  'misc',
  'currency',
  'ammunition',
  'quest',
] as const;

/** Manifest equip slots: the character's slots plus `2h` (occupies `weapon`, forbids a shield). */
export const ITEM_EQUIP_SLOTS = [...EQUIP_SLOTS, '2h'] as const;

/**
 * Requirements come nested (`{level, skills: {attack: 5}}`) or flat (`{attack: 5}`); every skill name
 * must be one the server knows (`defence` is `defense`).
 */
export const itemRequirementsSchema = z
  .object({ level: levelSchema.optional(), skills: z.record(z.string(), levelSchema).optional() })
  .catchall(levelSchema)
  .superRefine((req, ctx) => {
    for (const [key, value] of Object.entries(req)) {
      if (key === 'level') continue;
      const names = key === 'skills' ? Object.keys(value as Record<string, number>) : [key];
      for (const name of names) {
        if (normalizeSkill(name) === undefined) {
          ctx.addIssue({
            code: 'custom',
            path: key === 'skills' ? ['skills', name] : [name],
            message: `unknown skill "${name}"`,
          });
        }
      }
    }
  });

export const itemSchema = z.object({
  id: idSchema,
  name: z.string().min(1),
  type: z.enum(ITEM_TYPES),
  stackable: z.boolean().optional(),
  maxStackSize: posInt.optional(),
  value: nonNegInt.default(0),
  weight: z.number().min(0).optional(),
  tradeable: z.boolean().default(true),
  equipSlot: z.enum(ITEM_EQUIP_SLOTS).optional(),
  healAmount: nonNegInt.optional(),
  bonuses: z.record(z.string(), z.number()).optional(),
  requirements: itemRequirementsSchema.optional(),
  tool: z
    .object({ skill: z.string(), priority: z.number().optional(), rollTicks: posInt.optional() })
    .optional(),
  /** Weapons: `MELEE`, `RANGED`, `MAGIC` (any case), ticks between attacks, reach in tiles. */
  weaponType: z.string().optional(),
  attackType: z.string().optional(),
  attackSpeed: posInt.optional(),
  attackRange: posInt.optional(),
  /** Prayer xp for burying it (bones). */
  prayerXp: z.number().min(0).optional(),
  description: z.string().optional(),
  examine: z.string().optional(),
});

export const itemsFileSchema = z.array(itemSchema);

export type ItemDef = z.infer<typeof itemSchema>;
export type ItemRequirements = z.infer<typeof itemRequirementsSchema>;
