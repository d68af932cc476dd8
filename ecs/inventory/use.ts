import type { CommandOf } from '../commands.ts';
import { Dirty } from '../components.ts';
import { equipFromSlot } from '../equipment/equip.ts';
import { itemsChanged } from '../players.ts';
import { emitError, type GameWorld, markDirty, type PlayerData } from '../world.ts';
import { itemsLocked } from './locks.ts';
import { stackAt } from './slots.ts';

/**
 * `inventory:use`: eat, equip, or use an item on another slot or a world entity. Item-on-item and
 * item-on-entity uses are looked up in USE_HANDLERS, which later skills (firemaking, cooking...) extend;
 * with no handler the player is told nothing interesting happens.
 */

export type UseHandler = (
  world: GameWorld,
  player: PlayerData,
  cmd: CommandOf<'inventoryUse'>,
) => boolean; /* true when it handled the use */

/** Handlers tried in order for a use with targetSlot or targetId. Skills append to it at start-up. */
export const USE_HANDLERS: UseHandler[] = [];

function eat(world: GameWorld, player: PlayerData, slot: number, heal: number): void {
  const h = world.c.Health;
  const eid = player.eid;
  h.current[eid] = Math.min(h.max[eid] as number, (h.current[eid] as number) + heal);
  markDirty(world, eid, Dirty.health);
  const s = player.state.inventory[slot];
  if (s) {
    s.quantity -= 1;
    if (s.quantity <= 0) player.state.inventory[slot] = null;
  }
  player.state.health = h.current[eid] as number;
  itemsChanged(world, player);
}

export function handleInventoryUse(world: GameWorld, cmd: CommandOf<'inventoryUse'>): void {
  const player = world.players.get(cmd.characterId);
  if (!player || itemsLocked(world, player, cmd.origin)) return;
  const stack = stackAt(player.state.inventory, cmd.slot);
  if (!stack) {
    emitError(world, player.characterId, 'INVALID_SLOT', 'that slot is empty', cmd.origin);
    return;
  }
  if (cmd.targetSlot !== undefined || cmd.targetId !== undefined) {
    if (cmd.targetSlot !== undefined && !stackAt(player.state.inventory, cmd.targetSlot)) {
      emitError(world, player.characterId, 'INVALID_SLOT', 'the target slot is empty', cmd.origin);
      return;
    }
    for (const handler of USE_HANDLERS) if (handler(world, player, cmd)) return;
    emitError(world, player.characterId, 'INVALID_TARGET', 'Nothing interesting happens.', cmd.origin);
    return;
  }
  const info = world.content.items.get(stack.itemId);
  if (info && info.healAmount > 0) {
    eat(world, player, cmd.slot, info.healAmount);
    return;
  }
  if (info?.equipSlot) {
    equipFromSlot(world, player, cmd.slot, cmd.origin);
    return;
  }
  emitError(world, player.characterId, 'INVALID_TARGET', 'Nothing interesting happens.', cmd.origin);
}
