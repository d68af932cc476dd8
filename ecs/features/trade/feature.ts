import { defineFeature } from '../../core/feature.ts';
import type { Hasher } from '../../core/hasher.ts';
import type { GameWorld } from '../../core/world.ts';
import { inventory } from '../inventory/index.ts';
import { movement } from '../movement/index.ts';
import { handleTradeAccept } from './complete.ts';
import { handleTradeAddItem, handleTradeRemoveItem, handleTradeSetCoins } from './offer.ts';
import {
  handleTradeCancel,
  handleTradeRequest,
  handleTradeRespond,
  tradeDeathHook,
  tradeExpirySystem,
  tradeLeaveHook,
  tradeLock,
  tradeMoveHook,
} from './request.ts';
import { TRADE_RANGE, TRADES } from './types.ts';
import { tradeWire } from './wire.ts';

/** Player-to-player trades: request, two screens of offers, and an atomic swap in the database. */
export const trade = defineFeature({
  name: 'trade',
  state: TRADES,
  commands: {
    tradeRequest: handleTradeRequest,
    tradeRespond: handleTradeRespond,
    tradeAddItem: handleTradeAddItem,
    tradeSetCoins: handleTradeSetCoins,
    tradeRemoveItem: handleTradeRemoveItem,
    tradeAccept: handleTradeAccept,
    tradeCancel: handleTradeCancel,
  },
  actions: {
    trade: {
      reach: TRADE_RANGE,
      run: (world, player, targetId, origin) =>
        handleTradeRequest(world, {
          type: 'tradeRequest',
          characterId: player.characterId,
          targetPlayerId: targetId,
          ...(origin === undefined ? {} : { origin }),
        }),
    },
  },
  systems: [{ name: 'trade', phase: 'interactions', run: tradeExpirySystem }],
  on: { leave: tradeLeaveHook, move: tradeMoveHook, death: tradeDeathHook, itemsLocked: tradeLock },
  hash: hashTrades,
  uses: [movement, inventory],
  wire: tradeWire,
});

function hashTrades(world: GameWorld, h: Hasher): void {
  const table = world.get(TRADES);
  for (const t of table.byId.values()) h.json(t);
  h.int(table.made);
}
