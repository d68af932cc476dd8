import { describe, expect, it } from 'vitest';
import { Scenario } from '../../../tests/scenario/harness.ts';
import type { ItemStack } from '../../core/character-state.ts';
import type { Command } from '../../core/commands.ts';
import { TRADES } from './index.ts';
import { acceptBoth, codes, FakePersistence, openTrade, twoPlayers } from './trade-scenario-helpers.ts';

/** Every tradeError code of contract §2.3 the simulation decides (RATE_LIMITED is the transport's). */

function setup(aInv: ItemStack[] = [], bInv: (ItemStack | null)[] = []) {
  const s = new Scenario();
  const db = new FakePersistence(s);
  const [a, b] = twoPlayers(
    s,
    {
      name: 'Alice',
      inventory: aInv.length
        ? aInv
        : [
            { itemId: 'logs', quantity: 1 },
            { itemId: 'quest_medal', quantity: 1 },
          ],
      coins: 100,
    },
    { name: 'Bob', inventory: bInv },
  );
  return { s, db, a, b };
}

const code = (s: Scenario, id: string) => s.lastEvent(id, 'tradeError')?.data.code;

describe('trade errors', () => {
  it('NOT_FOUND for an unknown trade id, NOT_PARTICIPANT for a trade of others', () => {
    const { s, a, b } = setup();
    const c = s.addPlayer({ name: 'Carol' });
    const id = openTrade(s, a, b);
    s.push({ type: 'tradeAccept', characterId: a, tradeId: 'trade-999' });
    s.push({ type: 'tradeAddItem', characterId: c, tradeId: id, inventorySlot: 0 });
    s.step();
    expect(s.lastEvent(a, 'tradeError')?.data).toEqual({
      tradeId: 'trade-999',
      code: 'NOT_FOUND',
      message: 'no such trade',
    });
    expect(code(s, c)).toBe('NOT_PARTICIPANT');
  });

  it('SELF_TRADE, TARGET_OFFLINE (no such player in the world), TOO_FAR (more than 2 tiles)', () => {
    const s = new Scenario();
    const a = s.addPlayer({ name: 'A', x: 50, z: 50 });
    const far = s.addPlayer({ name: 'Far', x: 53, z: 50 });
    const near = s.addPlayer({ name: 'Near', x: 52, z: 52 });
    s.push({ type: 'tradeRequest', characterId: a, targetPlayerId: a });
    s.step();
    expect(code(s, a)).toBe('SELF_TRADE');
    s.push({ type: 'tradeRequest', characterId: a, targetPlayerId: 'char-404' });
    s.step();
    expect(code(s, a)).toBe('TARGET_OFFLINE');
    s.push({ type: 'tradeRequest', characterId: a, targetPlayerId: far });
    s.step();
    expect(code(s, a)).toBe('TOO_FAR');
    expect(s.eventsFor(far, 'tradeIncoming')).toEqual([]);
    s.push({ type: 'tradeRequest', characterId: a, targetPlayerId: near });
    s.step();
    expect(s.eventsFor(near, 'tradeIncoming')).toHaveLength(1);
  });

  it('PLAYER_BUSY: one trade per player, for the requester and for the target', () => {
    const { s, a, b } = setup();
    const c = s.addPlayer({ name: 'Carol' });
    openTrade(s, a, b);
    s.push({ type: 'tradeRequest', characterId: c, targetPlayerId: a });
    s.push({ type: 'tradeRequest', characterId: b, targetPlayerId: c });
    s.step();
    expect(code(s, c)).toBe('PLAYER_BUSY');
    expect(code(s, b)).toBe('PLAYER_BUSY');
    expect(s.eventsFor(c, 'tradeIncoming')).toEqual([]);
  });

  it('WRONG_STATE: adding before acceptance, the initiator answering, accepting a request, adding on screen 2, cancelling while completing', () => {
    const { s, a, b } = setup();
    s.push({ type: 'tradeRequest', characterId: a, targetPlayerId: b });
    s.step();
    const id = 'trade-1';
    for (const cmd of [
      { type: 'tradeAddItem', characterId: a, tradeId: id, inventorySlot: 0 },
      { type: 'tradeRespond', characterId: a, tradeId: id, accept: true },
      { type: 'tradeAccept', characterId: b, tradeId: id },
    ] as const) {
      s.push(cmd);
      s.step();
      expect(code(s, cmd.characterId)).toBe('WRONG_STATE');
    }
    s.push({ type: 'tradeRespond', characterId: b, tradeId: id, accept: true });
    s.push({ type: 'tradeAddItem', characterId: a, tradeId: id, inventorySlot: 0 });
    s.step();
    acceptBoth(s, id, a, b);
    s.push({ type: 'tradeSetCoins', characterId: a, tradeId: id, coins: 5 });
    s.push({ type: 'tradeRemoveItem', characterId: a, tradeId: id, tradeSlot: 0 });
    s.step();
    expect(codes(s, a, 'tradeError').slice(-2)).toEqual(['WRONG_STATE', 'WRONG_STATE']);
    acceptBoth(s, id, a, b);
    s.push({ type: 'tradeCancel', characterId: b, tradeId: id });
    s.step();
    expect(code(s, b)).toBe('WRONG_STATE');
    expect(s.world.get(TRADES).byId.get(id)?.state).toBe('completing');
  });

  it('INVALID_SLOT: an empty slot, an out-of-range slot, removing an empty trade slot', () => {
    const { s, a, b } = setup();
    const id = openTrade(s, a, b);
    for (const cmd of [
      { type: 'tradeAddItem', characterId: a, tradeId: id, inventorySlot: 5 },
      { type: 'tradeAddItem', characterId: a, tradeId: id, inventorySlot: 28 },
      { type: 'tradeAddItem', characterId: a, tradeId: id, inventorySlot: -1 },
      { type: 'tradeRemoveItem', characterId: a, tradeId: id, tradeSlot: 0 },
    ] as const) {
      s.push(cmd);
      s.step();
      expect(code(s, a)).toBe('INVALID_SLOT');
    }
    expect(s.eventsFor(b, 'tradeUpdated')).toEqual([]);
  });

  it('INVALID_QUANTITY: more than held, zero, negative, coins over the pouch', () => {
    const { s, a, b } = setup([{ itemId: 'feather', quantity: 10 }]);
    const id = openTrade(s, a, b);
    for (const cmd of [
      { type: 'tradeAddItem', characterId: a, tradeId: id, inventorySlot: 0, quantity: 11 },
      { type: 'tradeAddItem', characterId: a, tradeId: id, inventorySlot: 0, quantity: 0 },
      { type: 'tradeAddItem', characterId: a, tradeId: id, inventorySlot: 0, quantity: -3 },
      { type: 'tradeSetCoins', characterId: a, tradeId: id, coins: 101 },
      { type: 'tradeSetCoins', characterId: a, tradeId: id, coins: -1 },
    ] as const) {
      s.push(cmd);
      s.step();
      expect(code(s, a)).toBe('INVALID_QUANTITY');
    }
    const trade = s.world.get(TRADES).byId.get(id);
    expect(trade?.initiator.items).toEqual([]);
    expect(trade?.initiator.coins).toBe(0);
  });

  it('UNTRADEABLE: a quest item cannot be offered', () => {
    const { s, a, b } = setup();
    const id = openTrade(s, a, b);
    s.push({ type: 'tradeAddItem', characterId: a, tradeId: id, inventorySlot: 1 });
    s.step();
    expect(code(s, a)).toBe('UNTRADEABLE');
  });

  it('INVENTORY_FULL: an accept the receiver cannot hold is refused to both, accepts cleared, same screen', () => {
    const full = Array.from({ length: 28 }, () => ({ itemId: 'bones', quantity: 1 }));
    const { s, db, a, b } = setup([{ itemId: 'logs', quantity: 1 }], full);
    const id = openTrade(s, a, b);
    s.push({ type: 'tradeAddItem', characterId: a, tradeId: id, inventorySlot: 0 });
    s.step();
    s.push({ type: 'tradeAccept', characterId: a, tradeId: id });
    s.step();
    for (const p of [a, b]) expect(code(s, p)).toBe('INVENTORY_FULL');
    const trade = s.world.get(TRADES).byId.get(id);
    expect(trade?.state).toBe('offer');
    expect([trade?.initiator.accepted, trade?.recipient.accepted]).toEqual([false, false]);
    expect(db.open).toEqual([]);
  });

  it('a stackable the receiver already holds merges, so a full inventory can still receive it', () => {
    const full = Array.from({ length: 28 }, (_, i) => ({
      itemId: i === 0 ? 'feather' : 'bones',
      quantity: 1,
    }));
    const { s, db, a, b } = setup([{ itemId: 'feather', quantity: 9 }], full);
    const id = openTrade(s, a, b);
    s.push({ type: 'tradeAddItem', characterId: a, tradeId: id, inventorySlot: 0 });
    s.step();
    acceptBoth(s, id, a, b);
    acceptBoth(s, id, a, b);
    db.settle(true);
    expect(s.player(b).state.inventory[0]).toEqual({ itemId: 'feather', quantity: 10 });
  });

  it('INTERFACE_BLOCKED for every other item or pouch command during a trade, before range and slot checks', () => {
    const { s, a, b } = setup();
    s.player(a).admin = true;
    const id = openTrade(s, a, b);
    const blocked = [
      { type: 'inventoryDrop', characterId: a, slot: 27 },
      { type: 'inventoryMove', characterId: a, from: 0, to: 99 },
      { type: 'inventoryUse', characterId: a, slot: 0 },
      { type: 'unequip', characterId: a, slot: 'weapon' },
      { type: 'bankDeposit', characterId: a, slot: 0 },
      { type: 'bankWithdraw', characterId: a, itemId: 'logs' },
      { type: 'action', characterId: a, action: 'pickup', targetId: 'item-77' },
      { type: 'chatCommand', characterId: a, name: 'give', args: ['logs'] },
      { type: 'chatCommand', characterId: a, name: 'coins', args: ['5'] },
    ] satisfies Command[];
    for (const cmd of blocked) {
      s.push(cmd);
      s.step();
      expect(s.lastEvent(a, 'error')?.data.code, cmd.type).toBe('INTERFACE_BLOCKED');
    }
    expect(s.eventsFor(a, 'error')).toHaveLength(blocked.length);
    expect(s.player(a).state.coins).toBe(100);
    expect(s.world.get(TRADES).byId.get(id)?.state).toBe('offer');
  });
});
