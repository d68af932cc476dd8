import type { CommandOf } from '../../core/commands.ts';
import { Dirty } from '../../core/components.ts';
import { itemsChanged } from '../../core/players.ts';
import { emitError, type GameWorld, markDirty, type PlayerData } from '../../core/world.ts';
import { itemsLocked } from './locks.ts';
import { stackAt } from './slots.ts';

/**
 * `inventory:use`: eat, or use an item on nothing, another slot or a world entity. Every other use is
 * offered to the features' itemUse reactions (equipment wears it; skills to come cook or light it); with
 * no taker the player is told nothing interesting happens.
 */

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
    if (offerUse(world, player, cmd)) return;
    emitError(world, player.characterId, 'INVALID_TARGET', 'Nothing interesting happens.', cmd.origin);
    return;
  }
  const info = world.content.items.get(stack.itemId);
  if (info && info.healAmount > 0) {
    eat(world, player, cmd.slot, info.healAmount);
    return;
  }
  if (offerUse(world, player, cmd)) return;
  emitError(world, player.characterId, 'INVALID_TARGET', 'Nothing interesting happens.', cmd.origin);
}

function offerUse(world: GameWorld, player: PlayerData, cmd: CommandOf<'inventoryUse'>): boolean {
  for (const use of world.plan.itemUse) if (use(world, player, cmd)) return true;
  return false;
}
