import type { CommandOf } from '../../core/commands.ts';
import type { GameWorld } from '../../core/world.ts';
import { stackAt } from '../inventory/index.ts';
import { clearAccepts, sendUpdated, tradeError, tradeOf } from './session.ts';
import { TRADES, type TradeSide } from './types.ts';

/**
 * Changing an offer (screen 1 only). Offered items stay in the inventory, which is locked for the whole
 * trade, so an offer is only a claim on a slot: one entry per slot, never more than the slot holds.
 * Every change clears both accepts and shows both offers to both players.
 */

function openSide(world: GameWorld, characterId: string, tradeId: string): TradeSide | null {
  const found = tradeOf(world, characterId, tradeId);
  if (!found) return null;
  if (found.trade.state !== 'offer') {
    tradeError(world, characterId, tradeId, 'WRONG_STATE', 'offers can only change on the offer screen');
    return null;
  }
  return found.mine;
}

function changed(world: GameWorld, tradeId: string): void {
  const trade = world.get(TRADES).byId.get(tradeId);
  if (!trade) return;
  clearAccepts(trade);
  sendUpdated(world, trade);
}

export function handleTradeAddItem(world: GameWorld, cmd: CommandOf<'tradeAddItem'>): void {
  const side = openSide(world, cmd.characterId, cmd.tradeId);
  const player = world.players.get(cmd.characterId);
  if (!side || !player) return;
  const stack = stackAt(player.state.inventory, cmd.inventorySlot);
  if (!stack) {
    tradeError(world, cmd.characterId, cmd.tradeId, 'INVALID_SLOT', 'that slot is empty');
    return;
  }
  if (!(world.content.items.get(stack.itemId)?.tradeable ?? false)) {
    tradeError(world, cmd.characterId, cmd.tradeId, 'UNTRADEABLE', 'that item cannot be traded');
    return;
  }
  const entry = side.items.find((i) => i.inventorySlot === cmd.inventorySlot);
  const offered = entry?.quantity ?? 0;
  const left = stack.quantity - offered;
  const quantity = cmd.quantity ?? left;
  if (!Number.isInteger(quantity) || quantity <= 0 || quantity > left) {
    tradeError(world, cmd.characterId, cmd.tradeId, 'INVALID_QUANTITY', 'you do not hold that many');
    return;
  }
  if (entry) entry.quantity += quantity;
  else {
    side.items.push({
      tradeSlot: side.items.length,
      inventorySlot: cmd.inventorySlot,
      itemId: stack.itemId,
      quantity,
    });
  }
  changed(world, cmd.tradeId);
}

/** `tradeAddItem {coins}`: sets (not adds) the offered amount. */
export function handleTradeSetCoins(world: GameWorld, cmd: CommandOf<'tradeSetCoins'>): void {
  const side = openSide(world, cmd.characterId, cmd.tradeId);
  const player = world.players.get(cmd.characterId);
  if (!side || !player) return;
  if (!Number.isInteger(cmd.coins) || cmd.coins < 0 || cmd.coins > player.state.coins) {
    tradeError(world, cmd.characterId, cmd.tradeId, 'INVALID_QUANTITY', 'you do not have that many coins');
    return;
  }
  side.coins = cmd.coins;
  changed(world, cmd.tradeId);
}

export function handleTradeRemoveItem(world: GameWorld, cmd: CommandOf<'tradeRemoveItem'>): void {
  const side = openSide(world, cmd.characterId, cmd.tradeId);
  if (!side) return;
  const index = side.items.findIndex((i) => i.tradeSlot === cmd.tradeSlot);
  if (index < 0) {
    tradeError(world, cmd.characterId, cmd.tradeId, 'INVALID_SLOT', 'nothing in that trade slot');
    return;
  }
  side.items.splice(index, 1);
  side.items.forEach((item, i) => {
    item.tradeSlot = i;
  });
  changed(world, cmd.tradeId);
}
