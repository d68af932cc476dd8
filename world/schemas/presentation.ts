import { z } from 'zod';
import { idSchema, posInt } from '../../ecs/core/faces/manifest-primitives.ts';

/** Client-side presentation manifests the server only validates and serves: music, vegetation, LOD. */

export const musicFileSchema = z.array(
  z.object({
    id: idSchema,
    name: z.string().min(1),
    type: z.string().min(1),
    category: z.string().min(1),
    path: z.string().min(1),
    duration: posInt.optional(),
  }),
);

export const vegetationFileSchema = z.object({
  version: z.number().int().optional(),
  assets: z.array(
    z.object({
      id: idSchema,
      model: z.string().min(1),
      category: z.string().min(1),
      baseScale: z.number().positive(),
    }),
  ),
});

const lod = z.object({ lod1: z.number().min(0), imposter: z.number().min(0), fadeOut: z.number().min(0) });
export const lodSettingsFileSchema = z.object({
  version: z.number().int().optional(),
  distanceThresholds: z.record(z.string(), lod),
});
