import { emitError, type GameWorld, type PlayerData } from '../world.ts';
import { inLimbo } from './item-tx.ts';

/**
 * The inventory/pouch lock, checked first by every command that would change a player's items or coins
 * (contract §2.3: before range, slot or any other condition).
 *  - In a trade, from the accepted request to its end (including while it completes): INTERFACE_BLOCKED.
 *  - With an item transaction in flight (a bank deposit/withdraw or pickup awaiting the database): BUSY.
 */
export function itemsLocked(world: GameWorld, player: PlayerData, origin: string | undefined): boolean {
  if (player.tradeId !== null) {
    const trade = world.trades.get(player.tradeId);
    if (trade && trade.state !== 'requested') {
      emitError(world, player.characterId, 'INTERFACE_BLOCKED', 'finish or cancel your trade first', origin);
      return true;
    }
  }
  if (player.pendingTx > 0 || inLimbo(world, player.characterId)) {
    emitError(world, player.characterId, 'BUSY', 'an item transaction is still in progress', origin);
    return true;
  }
  return false;
}
