import { z } from 'zod';
import {
  boundsSchema,
  idSchema,
  nonNegInt,
  posInt,
  positionSchema,
} from '../../ecs/core/faces/manifest-primitives.ts';

/** world-areas.json (areas grouped as starterTowns, level1Areas, ...) and biomes.json. */

/** What talking to an area NPC opens: `bank`, `<x>_store` / `general_store`, `quest_giver`, ... */
export const areaNpcSchema = z.object({
  id: idSchema,
  type: z.string().min(1),
  position: positionSchema,
  storeId: idSchema.optional(),
  /** An NPC defined inline in the area (the reference's duel-arena staff) instead of in npcs.json. */
  name: z.string().optional(),
});

export const areaSchema = z.object({
  id: idSchema,
  name: z.string().min(1),
  description: z.string().optional(),
  difficultyLevel: nonNegInt.default(0),
  bounds: boundsSchema,
  biomeType: z.string().min(1),
  safeZone: z.boolean().default(false),
  pvpEnabled: z.boolean().default(false),
  /** Our extension: where new characters appear when this is the starter town. */
  spawnPoint: positionSchema.optional(),
  npcs: z.array(areaNpcSchema).default([]),
  resources: z
    .array(z.object({ type: z.string().min(1), resourceId: idSchema, position: positionSchema }))
    .default([]),
  mobSpawns: z
    .array(
      z.object({
        mobId: idSchema,
        position: positionSchema,
        spawnRadius: z.number().min(0).default(0),
        maxCount: posInt.default(1),
      }),
    )
    .default([]),
  fishing: z
    .object({
      enabled: z.boolean(),
      spotCount: nonNegInt.default(0),
      spotTypes: z.array(idSchema).default([]),
      /** Our extension: explicit spot positions; without them spots are laid out along the area's south edge. */
      positions: z.array(positionSchema).optional(),
    })
    .optional(),
  stations: z
    .array(z.object({ id: z.string().optional(), type: z.string().min(1), position: positionSchema }))
    .default([]),
});

export const worldAreasFileSchema = z.record(z.string(), z.record(z.string(), areaSchema));

export const biomeSchema = z.object({
  id: idSchema,
  name: z.string().min(1),
  description: z.string().optional(),
  difficultyLevel: nonNegInt.optional(),
  terrain: z.string().optional(),
  mobs: z.array(idSchema).default([]),
});

export const biomesFileSchema = z.array(biomeSchema);

export type AreaDef = z.infer<typeof areaSchema>;
export type BiomeDef = z.infer<typeof biomeSchema>;
