import { z } from 'zod';
import { EQUIP_SLOTS, type EquipSlot } from '../../ecs/core/character-state.ts';

/** Wire shapes more than one feature's events use. */

/**
 * Equipment slots as the wire names them. The simulation keeps the content's names (the item manifests'
 * `equipSlot`), where the ammunition slot is `arrows`; on the wire (player:sync, equipment:unequip, the
 * REST equipment and templates) it is `ammo`. Every other slot has the same name on both sides.
 */
export type WireEquipSlot<S extends EquipSlot = EquipSlot> = S extends 'arrows' ? 'ammo' : S;

export function wireEquipSlot<S extends EquipSlot>(slot: S): WireEquipSlot<S> {
  return (slot === 'arrows' ? 'ammo' : slot) as WireEquipSlot<S>;
}

export function simEquipSlot(slot: WireEquipSlot): EquipSlot {
  return slot === 'ammo' ? 'arrows' : slot;
}

export const WIRE_EQUIP_SLOTS = EQUIP_SLOTS.map(wireEquipSlot) as unknown as readonly [
  WireEquipSlot,
  ...WireEquipSlot[],
];

/** Worn items keyed by wire slot names (REST equipment, templates). */
export function wireEquipment<T>(e: Partial<Record<EquipSlot, T>>): Partial<Record<WireEquipSlot, T>> {
  const out: Partial<Record<WireEquipSlot, T>> = {};
  for (const slot of EQUIP_SLOTS) {
    const v = e[slot];
    if (v !== undefined) out[wireEquipSlot(slot)] = v;
  }
  return out;
}

export const itemStack = z.object({ itemId: z.string(), quantity: z.number().int().positive() });
export const skillValue = z.object({ level: z.number().int(), xp: z.number() });

export const entityType = z.enum(['player', 'npc', 'item', 'resource', 'station']);

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

export const errorCodes = [
  'BAD_MESSAGE',
  'RATE_LIMITED',
  'NOT_AUTHENTICATED',
  'TOO_FAR',
  'INVALID_TARGET',
  'INVALID_SLOT',
  'INTERFACE_BLOCKED',
  'REQUIREMENT_NOT_MET',
  'INVENTORY_FULL',
  'NOT_FOUND',
  'FORBIDDEN',
  'INVALID_QUANTITY',
  'BUSY',
  'INSUFFICIENT_FUNDS',
  'OUT_OF_STOCK',
  'UNTRADEABLE',
  'IN_COMBAT',
  'COOLDOWN',
  'LEVEL_TOO_LOW',
  'MISSING_TOOL',
  'MISSING_ITEMS',
  'INTERNAL',
] as const;
export type ErrorCode = (typeof errorCodes)[number];

/** Limits of client fields. */
export const MAX_INT = 2_147_483_647;
export const slot = z.number().int().min(0).max(27);
export const coord = z.number().int().min(-1_000_000).max(1_000_000);
export const id = z.string().min(1).max(128);
export const quantity = z.number().int().min(1).max(MAX_INT);
