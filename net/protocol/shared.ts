import { z } from 'zod';
import { EQUIP_SLOTS, type EquipSlot } from '../../ecs/core/character-state.ts';
import { ENTITY_TYPES } from '../../ecs/core/components.ts';
import { ERROR_CODES, type ErrorCode } from '../../ecs/core/events.ts';
import { type WireEquipSlot, wireEquipSlot } from '../../ecs/core/faces/primitives.ts';
import { HIT_STYLES } from '../../ecs/features/combat/index.ts';

/** Wire shapes more than one feature's events use. */

export {
  coord,
  id,
  itemStack,
  MAX_INT,
  quantity,
  simEquipSlot,
  skillValue,
  slot,
  WIRE_EQUIP_SLOTS,
  type WireEquipSlot,
  wireEquipSlot,
} from '../../ecs/core/faces/primitives.ts';

/** Worn items keyed by wire slot names (REST equipment, templates). */
export function wireEquipment<T>(e: Partial<Record<EquipSlot, T>>): Partial<Record<WireEquipSlot, T>> {
  const out: Partial<Record<WireEquipSlot, T>> = {};
  for (const slot of EQUIP_SLOTS) {
    const v = e[slot];
    if (v !== undefined) out[wireEquipSlot(slot)] = v;
  }
  return out;
}

export const entityType = z.enum(ENTITY_TYPES);

/**
 * A hit as every viewer of the target sees it, in the target's world:update entry (`hits`): who dealt it,
 * how much (0: a miss) and how. The target's `health` in the same entry is what is left after the tick.
 */
export const shownHit = z.object({
  attackerId: z.string(),
  damage: z.number().int(),
  style: z.enum(HIT_STYLES),
});
/** A death as every viewer sees it, in the entity's world:update entry (`death`): its last hitter. */
export const shownDeath = z.object({ killerId: z.string().nullable() });

/** One entity in world:update: id, type, tile, plus the public fields of its type. */
export const wireEntity = z
  .object({
    id: z.string(),
    type: entityType,
    x: z.number().int(),
    z: z.number().int(),
    /** player, npc: its name; station: what it is called (its kind's name, or an obstacle's). */
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
    /**
     * player, npc: the hits it took this tick, in the order they landed (only in the tick they happened;
     * every viewer gets each once).
     */
    hits: z.array(shownHit).optional(),
    /** player, npc: it died this tick (a dead NPC is also in `removed` of the same update). */
    death: shownDeath.optional(),
  })
  .loose();

/** The `error` event's codes (defined once, zod-free, in ecs/core/events.ts). */
export const errorCodes = ERROR_CODES;
export type { ErrorCode };
