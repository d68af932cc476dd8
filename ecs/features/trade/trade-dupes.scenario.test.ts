import { describe, expect, it } from 'vitest';
import { Scenario } from '../../../tests/scenario/harness.ts';
import type { CharacterState, ItemStack } from '../../core/character-state.ts';
import { GROUND_ITEMS } from '../ground-items/index.ts';
import { txInFlight } from '../inventory/index.ts';
import { TRADES } from './index.ts';
import {
  acceptBoth,
  codes,
  FakePersistence,
  openTrade,
  totals,
  twoPlayers,
} from './trade-scenario-helpers.ts';

/** Attempts to duplicate items through a trade (issue 7). Each must fail without creating anything. */

function setup(aInv: (ItemStack | null)[], bInv: (ItemStack | null)[] = []) {
  const s = new Scenario();
  const db = new FakePersistence(s);
  const spawn = s.world.content.spawn;
  const [a, b] = twoPlayers(
    s,
    { name: 'Alice', inventory: aInv, coins: 50, x: spawn.x - 2 },
    { name: 'Bob', inventory: bInv, x: spawn.x - 1 },
  );
  return { s, db, a, b };
}

function worldTotals(s: Scenario, extra: CharacterState[] = []): Map<string, number> {
  const m = new Map<string, number>();
  const states = [...[...s.world.players.values()].map((p) => p.state), ...extra];
  for (const st of states) for (const [k, v] of totals(st)) m.set(k, (m.get(k) ?? 0) + v);
  for (const g of s.world.get(GROUND_ITEMS).byEid.values())
    m.set(g.itemId, (m.get(g.itemId) ?? 0) + g.quantity);
  return m;
}

describe('duplication attempts', () => {
  it('offer then drop: the drop is blocked, the completed trade moves the item exactly once', () => {
    const { s, db, a, b } = setup([{ itemId: 'bronze_sword', quantity: 1 }]);
    const before = worldTotals(s);
    const id = openTrade(s, a, b);
    s.push({ type: 'tradeAddItem', characterId: a, tradeId: id, inventorySlot: 0 });
    s.push({ type: 'inventoryDrop', characterId: a, slot: 0 });
    s.step();
    expect(s.lastEvent(a, 'error')?.data.code).toBe('INTERFACE_BLOCKED');
    expect(s.world.get(GROUND_ITEMS).byEid.size).toBe(0);
    acceptBoth(s, id, a, b);
    acceptBoth(s, id, a, b);
    s.push({ type: 'inventoryDrop', characterId: a, slot: 0 });
    s.step();
    expect(s.lastEvent(a, 'error')?.data.code).toBe('INTERFACE_BLOCKED');
    db.settle(true);
    expect(worldTotals(s)).toEqual(before);
    expect(s.player(b).state.inventory[0]).toEqual({ itemId: 'bronze_sword', quantity: 1 });
  });

  it('offer then bank: the deposit is blocked, within reach of a bank', () => {
    const { s, db, a, b } = setup([{ itemId: 'logs', quantity: 1 }]);
    const id = openTrade(s, a, b);
    s.push({ type: 'tradeAddItem', characterId: a, tradeId: id, inventorySlot: 0 });
    s.push({ type: 'bankDeposit', characterId: a, slot: 0 });
    s.step();
    expect(s.lastEvent(a, 'error')?.data.code).toBe('INTERFACE_BLOCKED');
    expect(db.open).toEqual([]);
    expect(s.player(a).state.bank).toEqual([]);
  });

  it('offering the same slot twice adds to one entry and never more than the slot holds', () => {
    const { s, a, b } = setup([{ itemId: 'feather', quantity: 10 }]);
    const id = openTrade(s, a, b);
    s.push({ type: 'tradeAddItem', characterId: a, tradeId: id, inventorySlot: 0, quantity: 6 });
    s.push({ type: 'tradeAddItem', characterId: a, tradeId: id, inventorySlot: 0, quantity: 5 });
    s.push({ type: 'tradeAddItem', characterId: a, tradeId: id, inventorySlot: 0 });
    s.push({ type: 'tradeAddItem', characterId: a, tradeId: id, inventorySlot: 0 });
    s.step();
    expect(codes(s, a, 'tradeError')).toEqual(['INVALID_QUANTITY', 'INVALID_QUANTITY']);
    expect(s.world.get(TRADES).byId.get(id)?.initiator.items).toEqual([
      { tradeSlot: 0, inventorySlot: 0, itemId: 'feather', quantity: 10 },
    ]);
  });

  it('a non-stackable slot offered twice is refused the second time', () => {
    const { s, a, b } = setup([{ itemId: 'bronze_sword', quantity: 1 }]);
    const id = openTrade(s, a, b);
    s.push({ type: 'tradeAddItem', characterId: a, tradeId: id, inventorySlot: 0 });
    s.push({ type: 'tradeAddItem', characterId: a, tradeId: id, inventorySlot: 0, quantity: 1 });
    s.step();
    expect(s.lastEvent(a, 'tradeError')?.data.code).toBe('INVALID_QUANTITY');
    expect(s.world.get(TRADES).byId.get(id)?.initiator.items).toHaveLength(1);
  });

  it('accept while the partner changes the offer: the change clears the accept, on both screens', () => {
    const { s, a, b } = setup(
      [{ itemId: 'bronze_sword', quantity: 1 }],
      [
        { itemId: 'logs', quantity: 1 },
        { itemId: 'bones', quantity: 1 },
      ],
    );
    const id = openTrade(s, a, b);
    s.push({ type: 'tradeAddItem', characterId: a, tradeId: id, inventorySlot: 0 });
    s.push({ type: 'tradeAddItem', characterId: b, tradeId: id, inventorySlot: 0 });
    s.step();
    // Alice accepts; in the same tick Bob swaps the logs for bones and accepts: Alice never saw that offer.
    s.push({ type: 'tradeAccept', characterId: a, tradeId: id });
    s.push({ type: 'tradeRemoveItem', characterId: b, tradeId: id, tradeSlot: 0 });
    s.push({ type: 'tradeAddItem', characterId: b, tradeId: id, inventorySlot: 1 });
    s.push({ type: 'tradeAccept', characterId: b, tradeId: id });
    s.step();
    const trade = s.world.get(TRADES).byId.get(id);
    expect(trade?.state).toBe('offer');
    expect([trade?.initiator.accepted, trade?.recipient.accepted]).toEqual([false, true]);
    expect(s.lastEvent(a, 'tradeUpdated')?.data.theirOffer).toMatchObject({
      accepted: true,
      items: [{ itemId: 'bones' }],
    });
    // Screen 2 cannot be changed at all.
    acceptBoth(s, id, a, b);
    expect(trade?.state).toBe('confirm');
    s.push({ type: 'tradeAccept', characterId: a, tradeId: id });
    s.push({ type: 'tradeAddItem', characterId: b, tradeId: id, inventorySlot: 0 });
    s.step();
    expect(s.lastEvent(b, 'tradeError')?.data.code).toBe('WRONG_STATE');
    expect(trade?.recipient.items).toEqual([
      { tradeSlot: 0, inventorySlot: 1, itemId: 'bones', quantity: 1 },
    ]);
  });

  it('completing when the receiver lacks space is refused at the last accept, never handed to the database', () => {
    const { s, db, a, b } = setup([
      { itemId: 'logs', quantity: 1 },
      { itemId: 'bones', quantity: 1 },
    ]);
    const id = openTrade(s, a, b);
    s.push({ type: 'tradeAddItem', characterId: a, tradeId: id, inventorySlot: 0 });
    s.push({ type: 'tradeAddItem', characterId: a, tradeId: id, inventorySlot: 1 });
    s.step();
    acceptBoth(s, id, a, b);
    // Whatever filled Bob's inventory behind the lock's back, the swap is recomputed at every accept.
    s.player(b).state.inventory = s
      .player(b)
      .state.inventory.map((_, i) => (i < 27 ? { itemId: 'shrimp', quantity: 1 } : null));
    acceptBoth(s, id, a, b);
    for (const p of [a, b]) expect(s.lastEvent(p, 'tradeError')?.data.code).toBe('INVENTORY_FULL');
    expect(s.world.get(TRADES).byId.get(id)?.state).toBe('confirm');
    expect(s.lastEvent(a, 'tradeConfirmScreen')?.data.myOffer.accepted).toBe(false);
    expect(db.open).toEqual([]);
  });

  it('disconnect during the database write: the commit still applies, the leaver snapshot waits for it', () => {
    const { s, db, a, b } = setup([{ itemId: 'bronze_sword', quantity: 1 }]);
    const before = worldTotals(s);
    const id = openTrade(s, a, b);
    s.push({ type: 'tradeAddItem', characterId: a, tradeId: id, inventorySlot: 0 });
    s.push({ type: 'tradeSetCoins', characterId: a, tradeId: id, coins: 50 });
    s.step();
    acceptBoth(s, id, a, b);
    acceptBoth(s, id, a, b);
    const tx = db.last();
    s.push({ type: 'leave', characterId: a, reason: 'disconnect' });
    s.step();
    // No tradeCancelled: the swap is in the database. No stale snapshot handed over either.
    expect(s.eventsFor(b, 'tradeCancelled')).toEqual([]);
    expect(db.left).toEqual([]);
    s.step(3);
    db.answer(tx, true);
    s.step();
    expect(s.lastEvent(b, 'tradeCompleted')?.data.receivedItems).toEqual([
      { itemId: 'bronze_sword', quantity: 1 },
      { itemId: 'coins', quantity: 50 },
    ]);
    expect(db.left).toHaveLength(1);
    expect(db.left[0]?.inventory[0]).toBeNull();
    expect(db.left[0]?.coins).toBe(0);
    expect(worldTotals(s, db.left)).toEqual(before);
  });

  it('disconnect during a write that fails: the leaver snapshot keeps its items, the partner is told failed', () => {
    const { s, db, a, b } = setup([{ itemId: 'bronze_sword', quantity: 1 }]);
    const id = openTrade(s, a, b);
    s.push({ type: 'tradeAddItem', characterId: a, tradeId: id, inventorySlot: 0 });
    s.step();
    acceptBoth(s, id, a, b);
    acceptBoth(s, id, a, b);
    s.push({ type: 'leave', characterId: a, reason: 'disconnect' });
    s.step();
    db.settle(false);
    expect(db.left[0]?.inventory[0]).toEqual({ itemId: 'bronze_sword', quantity: 1 });
    expect(s.lastEvent(b, 'tradeCancelled')?.data.reason).toBe('failed');
    expect(s.player(b).state.inventory[0]).toBeNull();
  });

  it('the result arriving in the same tick as the leave corrects the snapshot of that tick', () => {
    const { s, db, a, b } = setup([{ itemId: 'bronze_sword', quantity: 1 }]);
    const id = openTrade(s, a, b);
    s.push({ type: 'tradeAddItem', characterId: a, tradeId: id, inventorySlot: 0 });
    s.step();
    acceptBoth(s, id, a, b);
    acceptBoth(s, id, a, b);
    s.push({ type: 'leave', characterId: a, reason: 'disconnect' });
    db.settle(true);
    expect(db.left).toHaveLength(1);
    expect(db.left[0]?.inventory[0]).toBeNull();
  });

  it('coming back before the result: locked (BUSY), and the result overwrites whatever was loaded', () => {
    const { s, db, a, b } = setup([{ itemId: 'bronze_sword', quantity: 1 }]);
    const id = openTrade(s, a, b);
    s.push({ type: 'tradeAddItem', characterId: a, tradeId: id, inventorySlot: 0 });
    s.step();
    acceptBoth(s, id, a, b);
    acceptBoth(s, id, a, b);
    const stale = structuredClone(s.player(a).state);
    s.push({ type: 'leave', characterId: a, reason: 'disconnect' });
    s.step();
    s.push({ type: 'join', characterId: a, accountId: stale.accountId, state: stale });
    s.step();
    s.push({ type: 'inventoryDrop', characterId: a, slot: 0 });
    s.step();
    expect(s.lastEvent(a, 'error')?.data.code).toBe('BUSY');
    expect(s.world.get(GROUND_ITEMS).byEid.size).toBe(0);
    db.settle(true);
    expect(s.player(a).state.inventory[0]).toBeNull();
    expect(s.player(b).state.inventory[0]).toEqual({ itemId: 'bronze_sword', quantity: 1 });
    expect(txInFlight(s.world, s.player(a).characterId)).toBe(false);
  });

  it('no save of a locked player is asked for while its transaction is in flight', () => {
    const { s, db, a, b } = setup([{ itemId: 'bronze_sword', quantity: 1 }]);
    const id = openTrade(s, a, b);
    s.push({ type: 'tradeAddItem', characterId: a, tradeId: id, inventorySlot: 0 });
    s.step();
    acceptBoth(s, id, a, b);
    acceptBoth(s, id, a, b);
    s.push({ type: 'damage', characterId: a, amount: 5 });
    s.step();
    expect(s.world.persist.dirty.has(a)).toBe(false);
    expect(db.itemsChanged.at(-1)).toEqual([]);
    db.settle(true);
    expect(db.itemsChanged.at(-1)).toEqual(expect.arrayContaining([a, b]));
  });
});
