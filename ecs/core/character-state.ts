import type { Skills } from './skills.ts';

/**
 * A character as the simulation and persistence both know it: what is loaded on login, snapshotted for
 * saving, and written by item-moving transactions. Plain data, no behaviour.
 */

export const INVENTORY_SLOTS = 28;

/** Equipment slot types, named as the item manifests' `equipSlot` (a `2h` item occupies `weapon`). */
export const EQUIP_SLOTS = [
  'weapon',
  'shield',
  'helmet',
  'body',
  'legs',
  'gloves',
  'boots',
  'cape',
  'amulet',
  'ring',
  'arrows',
] as const;
export type EquipSlot = (typeof EQUIP_SLOTS)[number];

export interface ItemStack {
  itemId: string;
  quantity: number;
}

export interface Position {
  x: number;
  y: number;
  z: number;
}

export interface CharacterState {
  id: string;
  accountId: string;
  name: string;
  position: Position;
  health: number;
  coins: number;
  skills: Skills;
  /** Exactly INVENTORY_SLOTS entries; null is an empty slot. */
  inventory: (ItemStack | null)[];
  equipment: Partial<Record<EquipSlot, ItemStack>>;
  /** Bank contents in display order; every item stacks in the bank. */
  bank: ItemStack[];
  /**
   * State of features with a persistence slice of their own (persistence/slices/), by slice name:
   * loaded with the character, saved with its snapshots. Absent = the feature's default.
   */
  slices?: Partial<CharacterSlices>;
}

/** Per-character state of features, by slice name: each feature adds its entry by augmentation. */
// biome-ignore lint/suspicious/noEmptyInterface: filled by the features' declarations
export interface CharacterSlices {}

export function emptyInventory(): (ItemStack | null)[] {
  return Array.from({ length: INVENTORY_SLOTS }, () => null);
}
