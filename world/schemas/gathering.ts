import { z } from 'zod';
import {
  chanceSchema,
  idSchema,
  levelSchema,
  nonNegInt,
  posInt,
} from '../../ecs/core/faces/manifest-primitives.ts';

/** gathering/{woodcutting,mining,fishing}.json: resource nodes and what they yield. */

const yieldSchema = z.object({
  itemId: idSchema,
  quantity: posInt.default(1),
  chance: chanceSchema.default(1),
  xpAmount: z.number().min(0),
  levelRequired: levelSchema.optional(),
  /** Catch rate out of 256 at level 1 and at level 99 (fishing). */
  catchLow: z.number().min(0).max(256).optional(),
  catchHigh: z.number().min(0).max(256).optional(),
});

const nodeSchema = z.object({
  id: idSchema,
  name: z.string().min(1),
  type: z.string().min(1),
  modelPath: z.string().nullable().optional(),
  modelVariants: z.array(z.string()).optional(),
  harvestSkill: z.enum(['woodcutting', 'mining', 'fishing']),
  /** An item id, or a tool class (`pickaxe`): any item whose id ends in `_pickaxe`. */
  toolRequired: idSchema,
  secondaryRequired: idSchema.optional(),
  levelRequired: levelSchema,
  baseCycleTicks: posInt,
  depleteChance: chanceSchema,
  respawnTicks: nonNegInt,
  harvestYield: z.array(yieldSchema).min(1),
  /** Our extension: the node (a fishing spot) moves every `moveTicks` ticks... */
  moveTicks: posInt.optional(),
  /** ...to another tile within `moveRadius` (default 3) of where the content put it. */
  moveRadius: posInt.optional(),
});

export const woodcuttingFileSchema = z.object({ trees: z.array(nodeSchema) });
export const miningFileSchema = z.object({ rocks: z.array(nodeSchema) });
export const fishingFileSchema = z.object({ spots: z.array(nodeSchema) });

export type GatheringNodeDef = z.infer<typeof nodeSchema>;
