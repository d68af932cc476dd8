import { openBank } from './bank/bank.ts';
import type { CommandOf } from './commands.ts';
import { handlePickup } from './ground-items/pickup.ts';
import { handleTradeRequest } from './trade/request.ts';
import { emitError, type GameWorld } from './world.ts';

/** `player:action`: pickup, bank (open) and trade (= tradeRequest) for now; the rest come with their features. */
export function handleAction(world: GameWorld, cmd: CommandOf<'action'>): void {
  const player = world.players.get(cmd.characterId);
  if (!player) return;
  switch (cmd.action) {
    case 'pickup': {
      handlePickup(world, player, cmd.targetId, cmd.origin);
      return;
    }
    case 'bank': {
      openBank(world, player, cmd.origin);
      return;
    }
    case 'trade': {
      handleTradeRequest(world, {
        type: 'tradeRequest',
        characterId: cmd.characterId,
        targetPlayerId: cmd.targetId,
        ...(cmd.origin === undefined ? {} : { origin: cmd.origin }),
      });
      return;
    }
    default: {
      emitError(world, player.characterId, 'BAD_MESSAGE', `${cmd.action} is not available yet`, cmd.origin);
      return;
    }
  }
}
