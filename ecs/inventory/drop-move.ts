import type { CommandOf } from '../commands.ts';
import { spawnGroundItem } from '../ground-items/ground-items.ts';
import { itemsChanged } from '../players.ts';
import { emitError, type GameWorld } from '../world.ts';
import { itemsLocked } from './locks.ts';
import { stackAt, takeFromSlot, validSlot } from './slots.ts';

/** `inventoryDrop` (to a ground item at the player's tile, seen by the owner first) and `inventoryMove`. */

export function handleInventoryDrop(world: GameWorld, cmd: CommandOf<'inventoryDrop'>): void {
  const player = world.players.get(cmd.characterId);
  if (!player || itemsLocked(world, player, cmd.origin)) return;
  const stack = stackAt(player.state.inventory, cmd.slot);
  if (!stack) {
    emitError(world, player.characterId, 'INVALID_SLOT', 'that slot is empty', cmd.origin);
    return;
  }
  const quantity = cmd.quantity ?? stack.quantity;
  if (!Number.isInteger(quantity) || quantity <= 0 || quantity > stack.quantity) {
    emitError(world, player.characterId, 'INVALID_QUANTITY', 'you do not hold that many', cmd.origin);
    return;
  }
  const itemId = stack.itemId;
  takeFromSlot(player.state.inventory, cmd.slot, quantity);
  const p = world.c.Position;
  spawnGroundItem(
    world,
    { itemId, quantity },
    p.x[player.eid] as number,
    p.z[player.eid] as number,
    player.characterId,
  );
  itemsChanged(world, player);
}

/** Swap two slots (either may be empty, the source may not). */
export function handleInventoryMove(world: GameWorld, cmd: CommandOf<'inventoryMove'>): void {
  const player = world.players.get(cmd.characterId);
  if (!player || itemsLocked(world, player, cmd.origin)) return;
  const inv = player.state.inventory;
  if (!stackAt(inv, cmd.from) || !validSlot(cmd.to)) {
    emitError(world, player.characterId, 'INVALID_SLOT', 'invalid slot', cmd.origin);
    return;
  }
  if (cmd.from === cmd.to) return;
  const a = inv[cmd.from] ?? null;
  inv[cmd.from] = inv[cmd.to] ?? null;
  inv[cmd.to] = a;
  itemsChanged(world, player);
}
