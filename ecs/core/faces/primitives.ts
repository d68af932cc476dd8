import { z } from 'zod';

/** Wire shapes and limits of client fields that more than one feature's events use. */

export const itemStack = z.object({ itemId: z.string(), quantity: z.number().int().positive() });
export const skillValue = z.object({ level: z.number().int(), xp: z.number() });

/** Limits of client fields. */
export const MAX_INT = 2_147_483_647;
export const slot = z.number().int().min(0).max(27);
export const coord = z.number().int().min(-1_000_000).max(1_000_000);
export const id = z.string().min(1).max(128);
export const quantity = z.number().int().min(1).max(MAX_INT);
