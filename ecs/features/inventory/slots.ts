import { INVENTORY_SLOTS, type ItemStack } from '../../core/character-state.ts';
import type { SimContent } from '../../core/content.ts';

/**
 * Pure inventory arithmetic over plain arrays, shared by every feature that moves items. Callers work on
 * a copy and commit it only when the whole change fits, so a refused change never half-applies.
 * Coins are never an inventory item: the `coins` item id always means the coin pouch.
 */

export const COINS = 'coins';

/** What addItem works on: an inventory and a coin pouch. */
export interface Purse {
  inventory: (ItemStack | null)[];
  coins: number;
}

/** Highest amount a stack or the pouch holds (a PostgreSQL integer). */
export const MAX_STACK = 2_147_483_647;

export function isStackable(content: SimContent, itemId: string): boolean {
  return content.items.get(itemId)?.stackable ?? false;
}

export function freeSlots(inventory: readonly (ItemStack | null)[]): number {
  let n = 0;
  for (let i = 0; i < INVENTORY_SLOTS; i++) if (!inventory[i]) n++;
  return n;
}

export function validSlot(slot: number): boolean {
  return Number.isInteger(slot) && slot >= 0 && slot < INVENTORY_SLOTS;
}

/** The stack in a slot, or null when the slot is out of range or empty. */
export function stackAt(inventory: readonly (ItemStack | null)[], slot: number): ItemStack | null {
  return validSlot(slot) ? (inventory[slot] ?? null) : null;
}

/** Total quantity of an item across the inventory. */
export function countItem(inventory: readonly (ItemStack | null)[], itemId: string): number {
  let n = 0;
  for (const s of inventory) if (s && s.itemId === itemId) n += s.quantity;
  return n;
}

/**
 * Add `quantity` of an item: coins to the pouch, a stackable onto its existing stack or the first free
 * slot, a non-stackable one per free slot. Mutates `purse`; returns false (purse possibly partly changed,
 * so pass a copy) when it does not fit.
 */
export function addItem(content: SimContent, purse: Purse, itemId: string, quantity: number): boolean {
  if (!Number.isInteger(quantity) || quantity <= 0) return false;
  if (itemId === COINS) {
    if (purse.coins + quantity > MAX_STACK) return false;
    purse.coins += quantity;
    return true;
  }
  const inv = purse.inventory;
  if (isStackable(content, itemId)) {
    const existing = inv.find((s) => s?.itemId === itemId);
    if (existing) {
      if (existing.quantity + quantity > MAX_STACK) return false;
      existing.quantity += quantity;
      return true;
    }
    const free = inv.indexOf(null);
    if (free < 0 || free >= INVENTORY_SLOTS) return false;
    inv[free] = { itemId, quantity };
    return true;
  }
  for (let i = 0; i < quantity; i++) {
    const free = inv.indexOf(null);
    if (free < 0 || free >= INVENTORY_SLOTS) return false;
    inv[free] = { itemId, quantity: 1 };
  }
  return true;
}

/** Take up to `quantity` from one slot (mutates); returns what was taken. */
/**
 * Take `quantity` (default: the slot's whole stack) of the item in `slot` out of an inventory (a copy
 * being prepared for a transaction): this slot first, then other slots holding the same item, so a
 * non-stackable n takes n slots. Null, with nothing taken, when the slot is empty or fewer are held.
 */
export function takeItems(
  content: SimContent,
  inventory: (ItemStack | null)[],
  slot: number,
  quantity?: number,
): number | null {
  const stack = stackAt(inventory, slot);
  if (!stack) return null;
  const { itemId } = stack;
  const slots = [slot, ...inventory.map((_, i) => i).filter((i) => i !== slot)].filter(
    (i) => inventory[i]?.itemId === itemId,
  );
  const held = isStackable(content, itemId)
    ? stack.quantity
    : slots.reduce((n, i) => n + (inventory[i]?.quantity ?? 0), 0);
  const wanted = quantity ?? stack.quantity;
  if (!Number.isInteger(wanted) || wanted <= 0 || wanted > held) return null;
  let left = wanted;
  for (const i of slots) if (left > 0) left -= takeFromSlot(inventory, i, left);
  return wanted;
}

export function takeFromSlot(inventory: (ItemStack | null)[], slot: number, quantity: number): number {
  const s = inventory[slot];
  if (!s) return 0;
  const taken = Math.min(quantity, s.quantity);
  s.quantity -= taken;
  if (s.quantity === 0) inventory[slot] = null;
  return taken;
}

/** Merge a stack into a bank list (every item stacks in the bank). Mutates. */
export function addToBank(bank: ItemStack[], itemId: string, quantity: number): boolean {
  const existing = bank.find((s) => s.itemId === itemId);
  if (existing) {
    if (existing.quantity + quantity > MAX_STACK) return false;
    existing.quantity += quantity;
  } else {
    bank.push({ itemId, quantity });
  }
  return true;
}

/** Merge a list of stacks by item id (for receivedItems and audit rows). */
export function mergeStacks(stacks: readonly ItemStack[]): ItemStack[] {
  const out: ItemStack[] = [];
  for (const s of stacks) {
    const e = out.find((o) => o.itemId === s.itemId);
    if (e) e.quantity += s.quantity;
    else out.push({ itemId: s.itemId, quantity: s.quantity });
  }
  return out;
}
