import { z } from 'zod';
import {
  chanceSchema,
  idSchema,
  levelSchema,
  nonNegInt,
  posInt,
} from '../../core/faces/manifest-primitives.ts';

/** Processing's content face, its schemas: recipes/*.json, one schema per processing skill. */

const inputSchema = z.object({ item: idSchema, amount: posInt });
const xp = z.number().min(0);

export const cookingFileSchema = z.object({
  recipes: z.array(
    z.object({
      raw: idSchema,
      cooked: idSchema,
      burnt: idSchema,
      level: levelSchema,
      xp,
      ticks: posInt,
      stopBurnLevel: z.object({ fire: levelSchema, range: levelSchema }).partial().optional(),
    }),
  ),
});

export const smeltingFileSchema = z.object({
  recipes: z.array(
    z.object({
      output: idSchema,
      inputs: z.array(inputSchema).min(1),
      level: levelSchema,
      xp,
      ticks: posInt,
      successRate: chanceSchema.default(1),
    }),
  ),
});

export const smithingFileSchema = z.object({
  recipes: z.array(
    z.object({
      output: idSchema,
      bar: idSchema,
      barsRequired: posInt,
      level: levelSchema,
      xp,
      ticks: posInt,
      outputQuantity: posInt.default(1),
    }),
  ),
});

export const firemakingFileSchema = z.object({
  recipes: z.array(
    z.object({
      log: idSchema,
      level: levelSchema,
      xp,
      ticks: posInt,
      /** Our extension: ticks the lit fire burns (default: the recipe's `ticks`). */
      burnTicks: posInt.optional(),
    }),
  ),
});

const craftLike = z.object({
  output: idSchema,
  outputQuantity: posInt.default(1),
  inputs: z.array(inputSchema).min(1),
  tools: z.array(idSchema).default([]),
  consumables: z.array(z.object({ item: idSchema, uses: posInt })).default([]),
  level: levelSchema,
  xp,
  ticks: posInt,
  /** Station type needed (`furnace`), or `none`. */
  station: z.string().min(1).default('none'),
  category: z.string().optional(),
  /** The skill trained; the file's own skill when absent. */
  skill: z.string().optional(),
});

export const craftingFileSchema = z.object({ recipes: z.array(craftLike) });
export const fletchingFileSchema = z.object({ recipes: z.array(craftLike) });

export const tanningFileSchema = z.object({
  recipes: z.array(
    z.object({ input: idSchema, output: idSchema, cost: nonNegInt, name: z.string().optional() }),
  ),
});

export const runecraftingFileSchema = z.object({
  recipes: z.array(
    z.object({
      runeType: idSchema,
      runeItemId: idSchema,
      levelRequired: levelSchema,
      xpPerEssence: xp,
      essenceTypes: z.array(idSchema).min(1),
      multiRuneLevels: z.array(levelSchema).default([]),
    }),
  ),
});
