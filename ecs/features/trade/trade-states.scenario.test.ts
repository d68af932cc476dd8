import { describe, expect, it } from 'vitest';
import { Scenario } from '../../../tests/scenario/harness.ts';
import { playerMoving } from '../../core/reactions.ts';
import { txInFlight } from '../inventory/index.ts';
import { TRADES, tradeIdOf } from './index.ts';
import { acceptBoth, FakePersistence, openTrade, twoPlayers } from './trade-scenario-helpers.ts';

/** Every row of the specification's trade state table and every contract ending (§2.3). */

function setup() {
  const s = new Scenario();
  const db = new FakePersistence(s);
  const [a, b] = twoPlayers(
    s,
    {
      name: 'Alice',
      inventory: [
        { itemId: 'bronze_sword', quantity: 1 },
        { itemId: 'feather', quantity: 50 },
      ],
      coins: 300,
    },
    {
      name: 'Bob',
      inventory: [
        { itemId: 'logs', quantity: 1 },
        { itemId: 'feather', quantity: 5 },
      ],
      coins: 20,
    },
  );
  return { s, db, a, b };
}

describe('trade state table', () => {
  it('none -> requested: tradeIncoming to the target with the initiator and its combat level', () => {
    const { s, a, b } = setup();
    s.push({ type: 'tradeRequest', characterId: a, targetPlayerId: b });
    s.step();
    const ev = s.lastEvent(b, 'tradeIncoming');
    expect(ev?.data).toEqual({
      tradeId: 'trade-1',
      fromPlayerId: a,
      fromPlayerName: 'Alice',
      fromPlayerLevel: 3,
    });
    expect(s.world.get(TRADES).byId.get('trade-1')?.state).toBe('requested');
    expect(s.eventsFor(a, 'tradeIncoming')).toEqual([]);
  });

  it('player:action trade is the same request', () => {
    const { s, a, b } = setup();
    s.push({ type: 'action', characterId: a, action: 'trade', targetId: b });
    s.step();
    expect(s.lastEvent(b, 'tradeIncoming')?.data.fromPlayerId).toBe(a);
  });

  it('requested -> offer screen on accept: tradeStarted to both with partner name, level and free slots', () => {
    const { s, a, b } = setup();
    const id = openTrade(s, a, b);
    expect(s.lastEvent(a, 'tradeStarted')?.data).toEqual({
      tradeId: id,
      partnerId: b,
      partnerName: 'Bob',
      partnerLevel: 3,
      partnerFreeSlots: 26,
    });
    expect(s.lastEvent(b, 'tradeStarted')?.data).toMatchObject({
      partnerId: a,
      partnerName: 'Alice',
      partnerFreeSlots: 26,
    });
    expect(s.world.get(TRADES).byId.get(id)?.state).toBe('offer');
  });

  it('offer screen: tradeAddItem sends tradeUpdated to both, offers relative to the receiver', () => {
    const { s, a, b } = setup();
    const id = openTrade(s, a, b);
    s.push({ type: 'tradeAddItem', characterId: a, tradeId: id, inventorySlot: 1, quantity: 20 });
    s.step();
    const offer = {
      items: [{ tradeSlot: 0, inventorySlot: 1, itemId: 'feather', quantity: 20 }],
      coins: 0,
      accepted: false,
    };
    const none = { items: [], coins: 0, accepted: false };
    expect(s.lastEvent(a, 'tradeUpdated')?.data).toEqual({
      tradeId: id,
      myOffer: offer,
      theirOffer: none,
      partnerFreeSlots: 26,
    });
    expect(s.lastEvent(b, 'tradeUpdated')?.data).toEqual({
      tradeId: id,
      myOffer: none,
      theirOffer: offer,
      partnerFreeSlots: 26,
    });
    // The item stays in the inventory until completion.
    expect(s.player(a).state.inventory[1]).toEqual({ itemId: 'feather', quantity: 50 });
  });

  it('tradeRemoveItem removes the entry, renumbers trade slots and sends tradeUpdated', () => {
    const { s, a, b } = setup();
    const id = openTrade(s, a, b);
    s.push({ type: 'tradeAddItem', characterId: a, tradeId: id, inventorySlot: 0 });
    s.push({ type: 'tradeAddItem', characterId: a, tradeId: id, inventorySlot: 1, quantity: 3 });
    s.push({ type: 'tradeRemoveItem', characterId: a, tradeId: id, tradeSlot: 0 });
    s.step();
    expect(s.lastEvent(b, 'tradeUpdated')?.data.theirOffer.items).toEqual([
      { tradeSlot: 0, inventorySlot: 1, itemId: 'feather', quantity: 3 },
    ]);
  });

  it('one accept is shown to both; both accepts -> confirmation screen with values and accepts cleared', () => {
    const { s, a, b } = setup();
    const id = openTrade(s, a, b);
    s.push({ type: 'tradeAddItem', characterId: a, tradeId: id, inventorySlot: 0 });
    s.push({ type: 'tradeAddItem', characterId: b, tradeId: id, inventorySlot: 1, quantity: 5 });
    s.push({ type: 'tradeSetCoins', characterId: b, tradeId: id, coins: 15 });
    s.step();
    s.push({ type: 'tradeAccept', characterId: a, tradeId: id });
    s.step();
    expect(s.lastEvent(b, 'tradeUpdated')?.data.theirOffer.accepted).toBe(true);
    expect(s.lastEvent(a, 'tradeUpdated')?.data.myOffer.accepted).toBe(true);
    s.push({ type: 'tradeAccept', characterId: b, tradeId: id });
    s.step();
    const conf = s.lastEvent(a, 'tradeConfirmScreen')?.data;
    // sword 100 x 1; feathers 2 x 5 + 15 coins
    expect(conf?.values).toEqual({ myOffer: 100, theirOffer: 25 });
    expect(conf?.myOffer.accepted).toBe(false);
    expect(conf?.theirOffer.accepted).toBe(false);
    expect(s.lastEvent(b, 'tradeConfirmScreen')?.data.values).toEqual({ myOffer: 25, theirOffer: 100 });
    expect(s.world.get(TRADES).byId.get(id)?.state).toBe('confirm');
    // One accept on screen 2 is shown with tradeConfirmScreen again.
    s.push({ type: 'tradeAccept', characterId: b, tradeId: id });
    s.step();
    expect(s.lastEvent(a, 'tradeConfirmScreen')?.data.theirOffer.accepted).toBe(true);
  });

  it('confirmation screen, both accept -> one trade transaction; tradeCompleted only after the commit', () => {
    const { s, db, a, b } = setup();
    const id = openTrade(s, a, b);
    s.push({ type: 'tradeAddItem', characterId: a, tradeId: id, inventorySlot: 0 });
    s.push({ type: 'tradeAddItem', characterId: a, tradeId: id, inventorySlot: 1, quantity: 10 });
    s.push({ type: 'tradeSetCoins', characterId: b, tradeId: id, coins: 20 });
    s.step();
    acceptBoth(s, id, a, b);
    acceptBoth(s, id, a, b);
    expect(db.open).toHaveLength(1);
    const tx = db.last();
    expect(tx.kind).toBe('trade');
    expect(tx.conserve).toBe(true);
    expect(tx.audit).toMatchObject({ tradeId: id, initiatorId: a, recipientId: b, outcome: 'completed' });
    expect(tx.changes.map((c) => c.characterId)).toEqual([a, b]);
    expect(tx.changes[1]?.after.inventory.slice(0, 3)).toEqual([
      { itemId: 'logs', quantity: 1 },
      { itemId: 'feather', quantity: 15 },
      { itemId: 'bronze_sword', quantity: 1 },
    ]);
    expect(tx.changes[0]?.after.coins).toBe(320);
    expect(s.world.get(TRADES).byId.get(id)?.state).toBe('completing');
    // Nothing moved and nothing announced before the database answered.
    expect(s.eventsFor(a, 'tradeCompleted')).toEqual([]);
    expect(s.player(a).state.inventory[0]).toEqual({ itemId: 'bronze_sword', quantity: 1 });
    db.settle(true);
    expect(s.lastEvent(a, 'tradeCompleted')?.data).toEqual({
      tradeId: id,
      receivedItems: [{ itemId: 'coins', quantity: 20 }],
    });
    expect(s.lastEvent(b, 'tradeCompleted')?.data).toEqual({
      tradeId: id,
      receivedItems: [
        { itemId: 'bronze_sword', quantity: 1 },
        { itemId: 'feather', quantity: 10 },
      ],
    });
    expect(s.player(a).state.inventory.slice(0, 2)).toEqual([null, { itemId: 'feather', quantity: 40 }]);
    expect(s.player(b).state.coins).toBe(0);
    expect(tradeIdOf(s.world, s.player(a).characterId)).toBeNull();
    expect(txInFlight(s.world, s.player(b).characterId)).toBe(false);
    expect(s.world.get(TRADES).byId.size).toBe(0);
    expect(s.player(a).syncDirty).toBe(true);
  });
});

describe('trade endings (each sends tradeCancelled to both and leaves one audit row)', () => {
  it('decline -> declined', () => {
    const { s, db, a, b } = setup();
    s.push({ type: 'tradeRequest', characterId: a, targetPlayerId: b });
    s.step();
    s.push({ type: 'tradeRespond', characterId: b, tradeId: 'trade-1', accept: false });
    s.step();
    for (const p of [a, b])
      expect(s.lastEvent(p, 'tradeCancelled')?.data).toEqual({ tradeId: 'trade-1', reason: 'declined' });
    expect(db.audits).toMatchObject([{ tradeId: 'trade-1', outcome: 'cancelled', reason: 'declined' }]);
    expect(tradeIdOf(s.world, s.player(a).characterId)).toBeNull();
  });

  it('tradeCancel -> cancelled, from either side and in any open state', () => {
    const { s, db, a, b } = setup();
    const id = openTrade(s, a, b);
    s.push({ type: 'tradeAddItem', characterId: a, tradeId: id, inventorySlot: 0 });
    s.push({ type: 'tradeCancel', characterId: b, tradeId: id });
    s.step();
    for (const p of [a, b]) expect(s.lastEvent(p, 'tradeCancelled')?.data.reason).toBe('cancelled');
    expect(db.audits).toHaveLength(1);
    expect(db.audits[0]?.initiatorOffer).toEqual({
      items: [{ tradeSlot: 0, inventorySlot: 0, itemId: 'bronze_sword', quantity: 1 }],
      coins: 0,
    });
  });

  it('an unanswered request expires after 30 s -> expired', () => {
    const { s, db, a, b } = setup();
    s.push({ type: 'tradeRequest', characterId: a, targetPlayerId: b });
    s.step();
    s.step(48);
    expect(s.eventsFor(a, 'tradeCancelled')).toEqual([]);
    s.step(2);
    for (const p of [a, b]) expect(s.lastEvent(p, 'tradeCancelled')?.data.reason).toBe('expired');
    expect(db.audits.map((r) => r.reason)).toEqual(['expired']);
  });

  it('a disconnect -> disconnected to the other only', () => {
    const { s, db, a, b } = setup();
    const id = openTrade(s, a, b);
    s.push({ type: 'leave', characterId: a, reason: 'disconnect' });
    s.step();
    expect(s.lastEvent(b, 'tradeCancelled')?.data).toEqual({ tradeId: id, reason: 'disconnected' });
    expect(s.eventsFor(a, 'tradeCancelled')).toEqual([]);
    expect(tradeIdOf(s.world, s.player(b).characterId)).toBeNull();
    expect(db.audits).toHaveLength(1);
  });

  it('a move during a trade -> moved', async () => {
    const { s, a, b } = setup();
    const id = openTrade(s, a, b);
    // Movement (another feature) runs the move reactions when a move command arrives; here as it would.
    s.world.events = [];
    playerMoving(s.world, s.player(b));
    const cancelled = s.world.events.filter((e) => e.kind === 'tradeCancelled');
    expect(cancelled.map((e) => [e.to, e.data])).toEqual([
      [a, { tradeId: id, reason: 'moved' }],
      [b, { tradeId: id, reason: 'moved' }],
    ]);
    expect(s.world.get(TRADES).byId.has(id)).toBe(false);
  });

  it('a death -> died', () => {
    const { s, a, b } = setup();
    openTrade(s, a, b);
    s.push({ type: 'damage', characterId: a, amount: 1000 });
    s.step();
    for (const p of [a, b]) expect(s.lastEvent(p, 'tradeCancelled')?.data.reason).toBe('died');
  });

  it('the database refuses the swap -> failed + tradeError FAILED to both, a failed audit row, nothing moved', () => {
    const { s, db, a, b } = setup();
    const id = openTrade(s, a, b);
    s.push({ type: 'tradeAddItem', characterId: a, tradeId: id, inventorySlot: 0 });
    s.step();
    acceptBoth(s, id, a, b);
    acceptBoth(s, id, a, b);
    db.settle(false);
    for (const p of [a, b]) {
      expect(s.lastEvent(p, 'tradeCancelled')?.data).toEqual({ tradeId: id, reason: 'failed' });
      expect(s.lastEvent(p, 'tradeError')?.data.code).toBe('FAILED');
    }
    expect(db.audits).toMatchObject([{ tradeId: id, outcome: 'failed' }]);
    expect(s.player(a).state.inventory[0]).toEqual({ itemId: 'bronze_sword', quantity: 1 });
    expect(s.player(b).state.inventory[2]).toBeNull();
    expect(txInFlight(s.world, s.player(a).characterId)).toBe(false);
  });
});
