import { defineFeature } from '../../core/feature.ts';
import type { Hasher } from '../../core/hasher.ts';
import type { GameWorld } from '../../core/world.ts';
import { handleTxResult, ITEM_TX, txLeaveHook, txLock, txSaveGuard } from './item-tx.ts';
import { handleInventoryMove } from './move.ts';
import { handleInventoryUse } from './use.ts';
import { inventoryWire } from './wire.ts';

/**
 * The inventory and coin pouch (use, drop, move), and item transactions: changes of items that wait for
 * the database (bank, trade completion, death-lock pickups) and the lock they hold meanwhile.
 */
export const inventory = defineFeature({
  name: 'inventory',
  state: ITEM_TX,
  commands: {
    inventoryUse: handleInventoryUse,
    inventoryMove: handleInventoryMove,
    txResult: handleTxResult,
  },
  // A dead player's transaction still settles (its death waits for exactly that).
  deliveries: ['txResult'],
  // Must stay last in the tick: it undoes saves that other systems of this tick asked for a locked player.
  systems: [{ name: 'txGuard', phase: 'guard', run: txSaveGuard }],
  on: { leave: txLeaveHook, itemsLocked: txLock },
  hash: hashPlayersAndTransactions,
  wire: inventoryWire,
});

/** Every player's holdings and skills, and the transactions in flight. */
function hashPlayersAndTransactions(world: GameWorld, h: Hasher): void {
  for (const p of world.players.values()) {
    const s = p.state;
    h.str(p.characterId);
    h.num(s.coins);
    h.json(s.inventory);
    h.json(s.equipment);
    h.json(s.bank);
    h.json(s.skills);
    h.int(s.health);
  }
  const t = world.get(ITEM_TX);
  for (const [id, tx] of t.pending) {
    h.str(id);
    h.json(tx.request.changes.map((c) => c.characterId));
  }
  h.int(t.made);
}
