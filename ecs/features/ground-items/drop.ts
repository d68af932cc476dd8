import type { CommandOf } from '../../core/commands.ts';
import { itemsChanged } from '../../core/players.ts';
import { emitError, type GameWorld } from '../../core/world.ts';
import { itemsLocked, stackAt, takeFromSlot } from '../inventory/index.ts';
import { spawnGroundItem } from './ground-items.ts';

/** `inventoryDrop`: the stack becomes a ground item at the player's tile, seen by the owner first. */

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
