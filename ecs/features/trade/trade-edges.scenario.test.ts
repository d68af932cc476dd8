import { describe, expect, it } from 'vitest';
import { Scenario } from '../../../tests/scenario/harness.ts';
import { populateWorld } from '../../core/populate.ts';
import { playerMoving } from '../../core/reactions.ts';
import { TRADES } from './index.ts';
import { acceptBoth, codes, FakePersistence, openTrade, twoPlayers } from './trade-scenario-helpers.ts';

/** Edges of the trade rules that docs/items-and-trading.md decides where the contract is silent. */

function setup() {
  const s = new Scenario();
  populateWorld(s.world); // the bank booth
  const db = new FakePersistence(s);
  const spawn = s.world.content.spawn;
  const [a, b] = twoPlayers(
    s,
    {
      name: 'Alice',
      x: spawn.x - 2,
      inventory: [
        { itemId: 'logs', quantity: 1 },
        { itemId: 'bones', quantity: 1 },
      ],
    },
    { name: 'Bob', x: spawn.x - 1, inventory: [{ itemId: 'feather', quantity: 3 }] },
  );
  const move = (id: string) => {
    s.world.events = [];
    playerMoving(s.world, s.player(id));
    return s.world.events.filter((e) => e.kind === 'tradeCancelled').map((e) => e.to);
  };
  return { s, db, a, b, move };
}

describe('trade edges', () => {
  it('a move while the request is unanswered does not cancel it; a move on screen 2 does', () => {
    const { s, a, b, move } = setup();
    s.push({ type: 'tradeRequest', characterId: a, targetPlayerId: b });
    s.step();
    expect(move(a)).toEqual([]);
    s.push({ type: 'tradeRespond', characterId: b, tradeId: 'trade-1', accept: true });
    s.step();
    acceptBoth(s, 'trade-1', a, b);
    expect(s.world.get(TRADES).byId.get('trade-1')?.state).toBe('confirm');
    expect(move(a)).toEqual([a, b]);
  });

  it('a move while completing does not cancel: the database decides', () => {
    const { s, db, a, b, move } = setup();
    const id = openTrade(s, a, b);
    acceptBoth(s, id, a, b);
    acceptBoth(s, id, a, b);
    expect(move(b)).toEqual([]);
    db.settle(true);
    expect(s.lastEvent(b, 'tradeCompleted')).toBeDefined();
  });

  it('answering a request while a bank transaction is in flight is PLAYER_BUSY; answering later works', () => {
    const { s, db, a, b } = setup();
    s.push({ type: 'tradeRequest', characterId: b, targetPlayerId: a });
    s.step();
    // Alice was asked, but in the same tick had deposited: her inventory is about to change.
    s.push({ type: 'bankDeposit', characterId: a, slot: 1 });
    s.step();
    s.push({ type: 'tradeRespond', characterId: a, tradeId: 'trade-1', accept: true });
    s.step();
    expect(codes(s, a, 'tradeError')).toEqual(['PLAYER_BUSY']);
    expect(s.world.get(TRADES).byId.get('trade-1')?.state).toBe('requested');
    db.settle(true);
    s.push({ type: 'tradeRespond', characterId: a, tradeId: 'trade-1', accept: true });
    s.step();
    expect(s.world.get(TRADES).byId.get('trade-1')?.state).toBe('offer');
  });

  it('a request to someone asked by another player is PLAYER_BUSY; the original request stands', () => {
    const { s, a, b } = setup();
    const c = s.addPlayer({ name: 'Carol', x: s.world.content.spawn.x - 1, z: s.world.content.spawn.z + 1 });
    s.push({ type: 'tradeRequest', characterId: a, targetPlayerId: b });
    s.push({ type: 'tradeRequest', characterId: c, targetPlayerId: b });
    s.step();
    expect(codes(s, c, 'tradeError')).toEqual(['PLAYER_BUSY']);
    expect(s.eventsFor(b, 'tradeIncoming')).toHaveLength(1);
  });

  it('a txResult for an unknown or settled transaction changes nothing', () => {
    const { s, db, a, b } = setup();
    const id = openTrade(s, a, b);
    s.push({ type: 'tradeAddItem', characterId: a, tradeId: id, inventorySlot: 0 });
    s.step();
    acceptBoth(s, id, a, b);
    acceptBoth(s, id, a, b);
    const tx = db.last();
    db.settle(true);
    const after = structuredClone(s.player(a).state.inventory);
    s.push({ type: 'txResult', characterId: a, txId: tx.id, ok: false });
    s.push({ type: 'txResult', characterId: a, txId: 'tx-999', ok: true });
    s.step();
    expect(s.player(a).state.inventory).toEqual(after);
    expect(s.eventsFor(a, 'tradeCompleted')).toHaveLength(1);
    expect(s.eventsFor(a, 'tradeCancelled')).toEqual([]);
  });

  it('offered coins move with the swap and arrive as a coins entry', () => {
    const { s, db, a, b } = setup();
    s.player(a).state.coins = 40;
    const id = openTrade(s, a, b);
    s.push({ type: 'tradeSetCoins', characterId: a, tradeId: id, coins: 40 });
    s.step();
    acceptBoth(s, id, a, b);
    acceptBoth(s, id, a, b);
    const tx = db.last();
    expect(tx.changes[0]?.after.coins).toBe(0);
    expect(tx.changes[1]?.after.coins).toBe(40);
    db.settle(true);
    expect([s.player(a).state.coins, s.player(b).state.coins]).toEqual([0, 40]);
    expect(s.lastEvent(b, 'tradeCompleted')?.data.receivedItems).toEqual([{ itemId: 'coins', quantity: 40 }]);
  });
});
