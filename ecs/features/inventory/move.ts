import type { CommandOf } from '../../core/commands.ts';
import { itemsChanged } from '../../core/players.ts';
import { emitError, type GameWorld } from '../../core/world.ts';
import { itemsLocked } from './locks.ts';
import { stackAt, validSlot } from './slots.ts';

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
