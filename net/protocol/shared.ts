import { z } from 'zod';
import { ENTITY_TYPES } from '../../ecs/core/components.ts';
import { ERROR_CODES, type ErrorCode } from '../../ecs/core/events.ts';

/** Wire shapes more than one feature's events use. */

export const itemStack = z.object({ itemId: z.string(), quantity: z.number().int().positive() });
export const skillValue = z.object({ level: z.number().int(), xp: z.number() });

export const entityType = z.enum(ENTITY_TYPES);

/** One entity in world:update: id, type, tile, plus the public fields of its type. */
export const wireEntity = z
  .object({
    id: z.string(),
    type: entityType,
    x: z.number().int(),
    z: z.number().int(),
    name: z.string().optional(),
    /** player: combat level; npc: its level. */
    level: z.number().int().optional(),
    health: z.number().optional(),
    maxHealth: z.number().optional(),
    /** Whether it is walking (1) or running (2) this tick; 0 or absent when still. */
    moving: z.number().int().min(0).max(2).optional(),
    npcId: z.string().optional(),
    itemId: z.string().optional(),
    quantity: z.number().int().optional(),
    resourceId: z.string().optional(),
    kind: z.string().optional(),
    depleted: z.boolean().optional(),
    /** station: `bank`, `furnace`, `anvil`, `range`, `altar`... as the content names them. */
    stationType: z.string().optional(),
    /** player, npc: the entity it fights; null when it stops. */
    targetId: z.string().nullable().optional(),
  })
  .loose();

/** The `error` event's codes (defined once, zod-free, in ecs/core/events.ts). */
export const errorCodes = ERROR_CODES;
export type { ErrorCode };

/** Limits of client fields. */
export const MAX_INT = 2_147_483_647;
export const slot = z.number().int().min(0).max(27);
export const coord = z.number().int().min(-1_000_000).max(1_000_000);
export const id = z.string().min(1).max(128);
export const quantity = z.number().int().min(1).max(MAX_INT);
