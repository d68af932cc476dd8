import { z } from 'zod';
import {
  assetPathSchema,
  idSchema,
  nonNegInt,
  posInt,
  positionSchema,
} from '../../ecs/core/faces/manifest-primitives.ts';

/** Objects placed in or describing the world: buildings, model bounds, duel arenas. */

/** Our shape (the reference ships an empty list): a rectangle of blocked tiles with an optional door. */
export const buildingsFileSchema = z.array(
  z.object({
    id: idSchema,
    name: z.string().min(1),
    /** South-west corner tile. */
    position: positionSchema,
    footprint: z.object({ width: posInt, depth: posInt }),
    /** A tile of the footprint left walkable. */
    door: z.object({ x: z.number().int(), z: z.number().int() }).optional(),
  }),
);

const vec3 = z.object({ x: z.number(), y: z.number(), z: z.number() });

/** model-bounds.json: written by `npm run model-bounds` (spec "Model bounds manifest"). */
export const modelBoundsFileSchema = z.object({
  generatedAt: z.iso.datetime(),
  tileSize: z.number().positive(),
  models: z.array(
    z.object({
      id: z.string().min(1),
      assetPath: assetPathSchema,
      bounds: z.object({ min: vec3, max: vec3 }),
      dimensions: vec3,
      footprint: z.object({ width: posInt, depth: posInt }),
    }),
  ),
});

export const duelArenasFileSchema = z.object({
  arenas: z.array(
    z.object({
      arenaId: nonNegInt,
      center: z.object({ x: z.number(), z: z.number() }),
      size: z.number().positive(),
      spawnPoints: z.array(positionSchema),
    }),
  ),
  lobby: z.object({ center: z.object({ x: z.number(), z: z.number() }) }).optional(),
  hospital: z.object({ center: z.object({ x: z.number(), z: z.number() }) }).optional(),
});

export type ModelBoundsFile = z.infer<typeof modelBoundsFileSchema>;
export type BuildingDef = z.infer<typeof buildingsFileSchema>[number];
