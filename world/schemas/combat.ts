import { z } from 'zod';
import { idSchema, levelSchema, posInt } from '../../ecs/core/faces/manifest-primitives.ts';

/** Combat-side manifests: prayers.json, ammunition.json, runes.json, combat-spells.json, tier-requirements.json. */

export const prayersFileSchema = z.object({
  prayers: z.array(
    z.object({
      id: idSchema,
      name: z.string().min(1),
      description: z.string().optional(),
      level: levelSchema,
      category: z.enum(['offensive', 'defensive', 'utility']),
      drainEffect: z.number().min(0),
      bonuses: z.record(z.string(), z.number()).default({}),
      conflicts: z.array(idSchema).default([]),
    }),
  ),
});

export const ammunitionFileSchema = z.object({
  arrows: z.array(
    z.object({
      id: idSchema,
      name: z.string().min(1),
      rangedStrength: z.number(),
      requiredRangedLevel: levelSchema,
      requiredBowTier: z.number().int().min(0),
    }),
  ),
});

export const runesFileSchema = z.object({
  runes: z.array(
    z.object({
      id: idSchema,
      name: z.string().min(1),
      element: z.string().nullable(),
      stackable: z.boolean(),
    }),
  ),
  elementalStaves: z.array(z.object({ staffId: idSchema, providesInfinite: z.array(idSchema) })).default([]),
});

const spellSchema = z.object({
  id: idSchema,
  name: z.string().min(1),
  level: levelSchema,
  baseMaxHit: z.number().int().min(0),
  baseXp: z.number().min(0),
  element: z.string().optional(),
  attackSpeed: posInt,
  runes: z.array(z.object({ runeId: idSchema, quantity: posInt })).min(1),
});

export const combatSpellsFileSchema = z.object({
  standard: z.record(z.string(), z.array(spellSchema)),
});

const levelTable = z.record(z.string(), z.record(z.string(), levelSchema));
export const tierRequirementsFileSchema = z.object({
  melee: levelTable.optional(),
  tools: levelTable.optional(),
  ranged: levelTable.optional(),
  magic: levelTable.optional(),
});

export type PrayerDef = z.infer<typeof prayersFileSchema>['prayers'][number];
