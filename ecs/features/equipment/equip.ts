import { EQUIP_SLOTS, type EquipSlot, type ItemStack } from '../../core/character-state.ts';
import type { CommandOf } from '../../core/commands.ts';
import { itemsChanged } from '../../core/players.ts';
import { emitError, type GameWorld, type PlayerData } from '../../core/world.ts';
import { addItem, isStackable, itemsLocked, type Purse } from '../inventory/index.ts';

/**
 * Wearing items. A two-handed weapon occupies `weapon` and forbids a shield: equipping one takes the
 * shield off, equipping a shield takes a two-handed weapon off. Everything taken off must fit in the
 * inventory (the equipped item's slot included) or nothing changes.
 */

/** Summed combat bonuses of everything worn (for combat). */
export function equipmentBonuses(world: GameWorld, player: PlayerData): Record<string, number> {
  const sum: Record<string, number> = {};
  for (const stack of Object.values(player.state.equipment)) {
    if (!stack) continue;
    const info = world.content.items.get(stack.itemId);
    for (const [k, v] of Object.entries(info?.bonuses ?? {})) sum[k] = (sum[k] ?? 0) + v;
  }
  return sum;
}

/** Equip the item in inventory slot `slot` (already checked non-empty and equippable). */
export function equipFromSlot(world: GameWorld, player: PlayerData, slot: number, origin?: string): void {
  const state = player.state;
  const stack = state.inventory[slot] as ItemStack;
  const info = world.content.items.get(stack.itemId);
  if (!info?.equipSlot) return;
  for (const [skill, level] of Object.entries(info.requirements)) {
    if ((state.skills[skill as keyof typeof state.skills]?.level ?? 1) < (level ?? 0)) {
      emitError(world, player.characterId, 'REQUIREMENT_NOT_MET', `requires ${skill} level ${level}`, origin);
      return;
    }
  }
  const target = info.equipSlot;
  const off: EquipSlot[] = [target];
  if (info.twoHanded) off.push('shield');
  if (target === 'shield') {
    const weapon = state.equipment.weapon;
    if (weapon && world.content.items.get(weapon.itemId)?.twoHanded) off.push('weapon');
  }
  const purse: Purse = { inventory: structuredClone(state.inventory), coins: state.coins };
  purse.inventory[slot] = null;
  const equipment = structuredClone(state.equipment);
  for (const s of off) {
    const worn = equipment[s];
    if (!worn) continue;
    delete equipment[s];
    // The first item taken off goes where the equipped one was, as players expect from a swap.
    const merges =
      isStackable(world.content, worn.itemId) && purse.inventory.some((x) => x?.itemId === worn.itemId);
    if (purse.inventory[slot] === null && !merges) purse.inventory[slot] = { ...worn };
    else if (!addItem(world.content, purse, worn.itemId, worn.quantity)) {
      emitError(world, player.characterId, 'INVENTORY_FULL', 'no room for what you take off', origin);
      return;
    }
  }
  equipment[target] = { itemId: stack.itemId, quantity: stack.quantity };
  state.inventory = purse.inventory;
  state.equipment = equipment;
  itemsChanged(world, player);
}

export function handleUnequip(world: GameWorld, cmd: CommandOf<'unequip'>): void {
  const player = world.players.get(cmd.characterId);
  if (!player || itemsLocked(world, player, cmd.origin)) return;
  const slot = cmd.slot as EquipSlot;
  const worn = (EQUIP_SLOTS as readonly string[]).includes(cmd.slot)
    ? player.state.equipment[slot]
    : undefined;
  if (!worn) {
    emitError(world, player.characterId, 'INVALID_SLOT', 'nothing worn there', cmd.origin);
    return;
  }
  const purse: Purse = { inventory: structuredClone(player.state.inventory), coins: player.state.coins };
  if (!addItem(world.content, purse, worn.itemId, worn.quantity)) {
    emitError(world, player.characterId, 'INVENTORY_FULL', 'your inventory is full', cmd.origin);
    return;
  }
  delete player.state.equipment[slot];
  player.state.inventory = purse.inventory;
  itemsChanged(world, player);
}

/** itemUse reaction: using a wearable item on nothing wears it. */
export function wearOnUse(world: GameWorld, player: PlayerData, cmd: CommandOf<'inventoryUse'>): boolean {
  if (cmd.targetSlot !== undefined || cmd.targetId !== undefined) return false;
  const stack = player.state.inventory[cmd.slot];
  if (!stack || !world.content.items.get(stack.itemId)?.equipSlot) return false;
  equipFromSlot(world, player, cmd.slot, cmd.origin);
  return true;
}
