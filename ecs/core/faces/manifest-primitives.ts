import { z } from 'zod';

/**
 * Shared building blocks of the manifest schemas, core (world/schemas/) and the features' content faces.
 * `z.object` keeps tolerating unknown extra fields.
 */

/** Content ids are slugs (`bronze_hatchet`, `tree_pineDead`): letters, digits, `_` and `-`. */
export const idSchema = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9_-]*$/, 'expected an id of letters, digits, _ or -');

export const levelSchema = z.number().int().min(1).max(99);
export const nonNegInt = z.number().int().min(0);
export const posInt = z.number().int().min(1);
export const chanceSchema = z.number().min(0).max(1);

export const positionSchema = z.object({ x: z.number(), y: z.number().optional(), z: z.number() });

export const boundsSchema = z
  .object({ minX: z.number(), maxX: z.number(), minZ: z.number(), maxZ: z.number() })
  .refine((b) => b.minX <= b.maxX && b.minZ <= b.maxZ, 'min must not exceed max');

export const itemAmountSchema = z.object({ itemId: idSchema, quantity: posInt });

/** Skill-name keyed levels (`defence` accepted; normalised later by normalizeSkill). */
export const skillLevelsSchema = z.record(z.string(), levelSchema);

export const assetPathSchema = z.string().regex(/^asset:\/\//, 'expected an asset:// path');
