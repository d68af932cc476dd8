import { z } from 'zod';
import { EQUIP_SLOTS, type EquipSlot } from '../character-state.ts';

/** Wire shapes and limits of client fields that more than one feature's events use. */

export const itemStack = z.object({ itemId: z.string(), quantity: z.number().int().positive() });
export const skillValue = z.object({ level: z.number().int(), xp: z.number() });

/** Limits of client fields. */
export const MAX_INT = 2_147_483_647;
export const slot = z.number().int().min(0).max(27);
export const coord = z.number().int().min(-1_000_000).max(1_000_000);
export const id = z.string().min(1).max(128);
export const quantity = z.number().int().min(1).max(MAX_INT);

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
