import { itemLockOf } from '../../core/reactions.ts';
import { emitError, type GameWorld, type PlayerData } from '../../core/world.ts';

/**
 * The inventory/pouch lock, checked first by every command that would change a player's items or coins
 * (before range, slot or any other condition). Features hold it through their itemsLocked reaction:
 *  - a trade, from the accepted request to its end (including while it completes): INTERFACE_BLOCKED;
 *  - an item transaction in flight (a bank deposit/withdraw or pickup awaiting the database): BUSY.
 * The first lock found is sent to the player as an error; true means "stop here".
 */
export function itemsLocked(world: GameWorld, player: PlayerData, origin: string | undefined): boolean {
  const lock = itemLockOf(world, player);
  if (lock) emitError(world, player.characterId, lock.code, lock.message, origin);
  return lock !== null;
}
