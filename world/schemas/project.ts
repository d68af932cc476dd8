import { z } from 'zod';
import { EQUIP_SLOTS } from '../../ecs/core/character-state.ts';
import { idSchema, itemAmountSchema, nonNegInt } from '../../ecs/core/faces/manifest-primitives.ts';

/** Our own optional manifests (not in the reference): world.json and character-templates.json. */

export const worldFileSchema = z
  .object({
    bounds: z
      .object({
        minX: z.number().int(),
        maxX: z.number().int(),
        minZ: z.number().int(),
        maxZ: z.number().int(),
      })
      .refine((b) => b.minX < b.maxX && b.minZ < b.maxZ, 'min must be below max'),
    spawn: z.object({ x: z.number(), z: z.number() }),
  })
  .refine(
    (w) =>
      w.spawn.x >= w.bounds.minX &&
      w.spawn.x <= w.bounds.maxX &&
      w.spawn.z >= w.bounds.minZ &&
      w.spawn.z <= w.bounds.maxZ,
    { message: 'spawn lies outside the bounds', path: ['spawn'] },
  );

export const characterTemplateSchema = z.object({
  id: idSchema,
  name: z.string().min(1),
  description: z.string().default(''),
  inventory: z.array(itemAmountSchema).max(28).default([]),
  equipment: z.partialRecord(z.enum(EQUIP_SLOTS), idSchema).default({}),
  coins: nonNegInt.default(0),
});

export const characterTemplatesFileSchema = z.array(characterTemplateSchema).min(1);

export type WorldFile = z.infer<typeof worldFileSchema>;
export type CharacterTemplate = z.infer<typeof characterTemplateSchema>;
