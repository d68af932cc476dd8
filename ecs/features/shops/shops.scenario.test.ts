import { describe, expect, it } from 'vitest';
import { shopContent } from '../../../tests/helpers/shop-content.ts';
import { Scenario } from '../../../tests/scenario/harness.ts';
import type { ItemStack } from '../../core/character-state.ts';
import { populateWorld } from '../../core/populate.ts';
import { interfaceOpened } from '../../core/reactions.ts';
import { FakePersistence, openTrade } from '../trade/trade-scenario-helpers.ts';

const GENERAL = 'npc-1';
const LIMITED = 'npc-2';
const BANKER = 'npc-3';

function shop(opts: { coins?: number; inventory?: (ItemStack | null)[]; x?: number; z?: number } = {}) {
  const s = new Scenario({ content: shopContent() });
  populateWorld(s.world);
  const db = new FakePersistence(s);
  const id = s.addPlayer({
    name: 'Buyer',
    x: opts.x ?? 101,
    z: opts.z ?? 100,
    coins: opts.coins ?? 100,
    ...opts,
  });
  return { s, db, id, p: () => s.player(id) };
}

const codes = (s: Scenario, id: string) => s.eventsOf(id, 'error').map((e) => e.data.code);

function open(s: Scenario, id: string, keeper = GENERAL, steps = 1) {
  s.push({ type: 'action', characterId: id, action: 'shop', targetId: keeper });
  s.step(steps);
}

describe('shops', () => {
  it('player:action shop walks to the keeper, then opens the shop (shop:open)', () => {
    const { s, id } = shop({ x: 90, z: 100 });
    open(s, id);
    expect(s.lastEvent(id, 'shopOpen')).toBeUndefined();
    s.step(8);
    expect(s.lastEvent(id, 'shopOpen')?.data).toEqual({
      shopId: 'general',
      name: 'General store',
      items: [
        { itemId: 'feather', price: 3, stock: -1 },
        { itemId: 'shrimp', price: 20, stock: -1 },
        { itemId: 'logs', price: 15, stock: 5 },
      ],
      buyback: true,
      sellRate: 0.5,
    });
    expect(Math.abs(s.position(id).x - 102)).toBeLessThanOrEqual(1);
  });

  it('an NPC that keeps no shop is INVALID_TARGET, an unknown target NOT_FOUND', () => {
    const { s, id } = shop({ x: 97, z: 103 });
    open(s, id, BANKER);
    open(s, id, 'npc-999');
    expect(codes(s, id)).toEqual(['INVALID_TARGET', 'NOT_FOUND']);
    expect(s.eventsOf(id, 'shopOpen')).toEqual([]);
  });

  it('a buy is one shop_buy transaction; nothing shows until it commits; stock falls; everyone browsing hears it', () => {
    const { s, db, id, p } = shop();
    const other = s.addPlayer({ name: 'Browser', x: 103, z: 100 });
    open(s, id);
    open(s, other);
    s.push({ type: 'shopBuy', characterId: id, shopId: 'general', itemId: 'logs', quantity: 2 });
    s.step();
    const tx = db.last();
    expect(tx).toMatchObject({ kind: 'shop_buy', requesterId: id, conserve: false });
    expect(tx.changes).toHaveLength(1);
    expect(tx.changes[0]?.after.coins).toBe(70);
    expect(tx.changes[0]?.after.inventory.slice(0, 2)).toEqual([
      { itemId: 'logs', quantity: 1 },
      { itemId: 'logs', quantity: 1 },
    ]);
    expect(p().state.coins).toBe(100);
    expect(s.eventsOf(other, 'shopUpdate')).toEqual([]);
    // The player is BUSY while the transaction is in flight.
    s.push({ type: 'shopBuy', characterId: id, shopId: 'general', itemId: 'logs', quantity: 1 });
    s.step();
    expect(codes(s, id)).toEqual(['BUSY']);
    db.settle(true);
    expect(p().state.coins).toBe(70);
    expect(p().syncDirty).toBe(true);
    for (const who of [id, other]) {
      expect(s.lastEvent(who, 'shopUpdate')?.data).toEqual({
        shopId: 'general',
        items: [
          { itemId: 'feather', price: 3, stock: -1 },
          { itemId: 'shrimp', price: 20, stock: -1 },
          { itemId: 'logs', price: 15, stock: 3 },
        ],
      });
    }
  });

  it('a failed commit keeps the holdings and puts the stock back', () => {
    const { s, db, id, p } = shop();
    open(s, id);
    s.push({ type: 'shopBuy', characterId: id, shopId: 'general', itemId: 'logs', quantity: 5 });
    s.step();
    s.push({ type: 'shopBuy', characterId: 'char-x', shopId: 'general', itemId: 'logs', quantity: 1 });
    db.settle(false);
    expect(p().state.coins).toBe(100);
    expect(p().state.inventory[0]).toBeNull();
    expect(codes(s, id)).toEqual(['BUSY']);
    s.push({ type: 'shopBuy', characterId: id, shopId: 'general', itemId: 'logs', quantity: 5 });
    s.step();
    expect(db.open).toHaveLength(1);
  });

  it('errors: INSUFFICIENT_FUNDS, OUT_OF_STOCK, INVENTORY_FULL, NOT_FOUND; nothing is asked of the database', () => {
    const full = Array.from({ length: 28 }, () => ({ itemId: 'bones', quantity: 1 }));
    const { s, db, id } = shop({ coins: 50 });
    open(s, id);
    const buy = (itemId: string, quantity: number, shopId = 'general') =>
      s.push({ type: 'shopBuy', characterId: id, shopId, itemId, quantity });
    buy('shrimp', 3); // 60 > 50
    buy('logs', 6); // 5 in stock
    buy('bones', 1); // not sold here
    buy('logs', 1, 'limited'); // not the open shop
    s.step();
    expect(codes(s, id)).toEqual(['INSUFFICIENT_FUNDS', 'OUT_OF_STOCK', 'NOT_FOUND', 'NOT_FOUND']);
    const f = shop({ coins: 50, inventory: full });
    open(f.s, f.id);
    f.s.push({ type: 'shopBuy', characterId: f.id, shopId: 'general', itemId: 'shrimp', quantity: 1 });
    f.s.step();
    expect(codes(f.s, f.id)).toEqual(['INVENTORY_FULL']);
    // A stackable onto its existing stack fits a full inventory.
    f.p().state.inventory[27] = { itemId: 'feather', quantity: 1 };
    f.s.push({ type: 'shopBuy', characterId: f.id, shopId: 'general', itemId: 'feather', quantity: 4 });
    f.s.step();
    expect(f.db.last().changes[0]?.after.inventory[27]).toEqual({ itemId: 'feather', quantity: 5 });
    expect(db.open).toEqual([]);
  });

  it('sell: floor(value x buybackRate) each, one shop_sell transaction; non-stackables from several slots', () => {
    const { s, db, id, p } = shop({
      coins: 0,
      inventory: [
        { itemId: 'shrimp', quantity: 1 },
        { itemId: 'feather', quantity: 7 },
        { itemId: 'shrimp', quantity: 1 },
      ],
    });
    open(s, id);
    s.push({ type: 'shopSell', characterId: id, shopId: 'general', slot: 0, quantity: 2 });
    s.step();
    expect(db.last()).toMatchObject({ kind: 'shop_sell', conserve: false });
    db.settle(true);
    expect(p().state.coins).toBe(10); // shrimp value 10 x 0.5 x 2
    expect(p().state.inventory.slice(0, 3)).toEqual([null, { itemId: 'feather', quantity: 7 }, null]);
    s.push({ type: 'shopSell', characterId: id, shopId: 'general', slot: 1, quantity: 3 });
    s.step();
    db.settle(true);
    expect(p().state.coins).toBe(13); // feather value 2 x 0.5 = 1 each
    expect(p().state.inventory[1]).toEqual({ itemId: 'feather', quantity: 4 });
  });

  it('sell errors: UNTRADEABLE items and shops without buyback, INVALID_SLOT, INVALID_QUANTITY', () => {
    const { s, db, id } = shop({
      x: 100,
      z: 109,
      inventory: [
        { itemId: 'quest_medal', quantity: 1 },
        { itemId: 'logs', quantity: 1 },
      ],
    });
    open(s, id, LIMITED);
    s.push({ type: 'shopSell', characterId: id, shopId: 'limited', slot: 1 });
    s.step();
    s.push({ type: 'shopClose', characterId: id, shopId: 'limited' });
    s.step();
    const g = shop({
      inventory: [
        { itemId: 'quest_medal', quantity: 1 },
        { itemId: 'logs', quantity: 1 },
      ],
    });
    open(g.s, g.id);
    g.s.push({ type: 'shopSell', characterId: g.id, shopId: 'general', slot: 0 });
    g.s.push({ type: 'shopSell', characterId: g.id, shopId: 'general', slot: 5 });
    g.s.push({ type: 'shopSell', characterId: g.id, shopId: 'general', slot: 1, quantity: 2 });
    g.s.step();
    expect(codes(s, id)).toEqual(['UNTRADEABLE']);
    expect(codes(g.s, g.id)).toEqual(['UNTRADEABLE', 'INVALID_SLOT', 'INVALID_QUANTITY']);
    expect(db.open).toEqual([]);
    expect(g.db.open).toEqual([]);
  });

  it('a sold item the shop stocks goes back on the shelf', () => {
    const { s, db, id } = shop({ inventory: [{ itemId: 'logs', quantity: 1 }] });
    open(s, id);
    s.push({ type: 'shopSell', characterId: id, shopId: 'general', slot: 0 });
    s.step();
    db.settle(true);
    expect(s.lastEvent(id, 'shopUpdate')?.data.items[2]).toEqual({ itemId: 'logs', price: 15, stock: 6 });
    // Overstocked: back down one unit after restockTime (6 s = 10 ticks).
    s.step(10);
    expect(s.lastEvent(id, 'shopUpdate')?.data.items[2]?.stock).toBe(5);
  });

  it('stock restocks one unit every restockTime seconds toward stockQuantity, counted in ticks; /stock refills', () => {
    const { s, db, id } = shop({ x: 100, z: 109 });
    open(s, id, LIMITED);
    s.push({ type: 'shopBuy', characterId: id, shopId: 'limited', itemId: 'logs', quantity: 3 });
    s.step();
    const boughtTick = s.world.tick;
    db.settle(true);
    expect(s.lastEvent(id, 'shopUpdate')?.data.items).toEqual([{ itemId: 'logs', price: 10, stock: 0 }]);
    s.push({ type: 'shopBuy', characterId: id, shopId: 'limited', itemId: 'logs', quantity: 1 });
    s.step();
    expect(codes(s, id)).toEqual(['OUT_OF_STOCK']);
    s.step(boughtTick + 10 - s.world.tick - 1);
    expect(s.lastEvent(id, 'shopUpdate')?.data.items[0]?.stock).toBe(0);
    s.step();
    const updates = s.eventsOf(id, 'shopUpdate');
    expect(updates.at(-1)?.data.items[0]?.stock).toBe(1);
    expect(updates.at(-1)?.tick).toBe(boughtTick + 10);
    s.step(10);
    expect(s.lastEvent(id, 'shopUpdate')?.data.items[0]?.stock).toBe(2);
    s.player(id).admin = true;
    s.push({ type: 'chatCommand', characterId: id, name: 'stock', args: ['limited'] });
    s.step();
    expect(s.lastEvent(id, 'shopUpdate')?.data.items[0]?.stock).toBe(3);
    s.step(30);
    expect(s.lastEvent(id, 'shopUpdate')?.data.items[0]?.stock).toBe(3);
    expect(s.eventsOf(id, 'shopUpdate').filter((e) => e.tick > boughtTick + 20)).toHaveLength(1);
  });

  it('walking beyond 2 tiles of the keeper closes the shop; within 2 it stays open', () => {
    const { s, id } = shop();
    open(s, id);
    s.push({ type: 'move', characterId: id, x: 100, z: 100, run: false });
    s.step(3);
    expect(s.eventsOf(id, 'shopClosed')).toEqual([]);
    s.push({ type: 'move', characterId: id, x: 96, z: 100, run: false });
    s.step(4);
    expect(s.eventsOf(id, 'shopClosed').map((e) => e.data)).toEqual([{ shopId: 'general' }]);
    s.push({ type: 'shopBuy', characterId: id, shopId: 'general', itemId: 'feather', quantity: 1 });
    s.step();
    expect(codes(s, id)).toEqual(['NOT_FOUND']);
  });

  it('shop:close, another interface, another action, or leaving closes it', () => {
    const { s, id } = shop();
    open(s, id);
    s.push({ type: 'shopClose', characterId: id, shopId: 'general' });
    s.step();
    expect(s.eventsOf(id, 'shopClosed')).toHaveLength(1);
    open(s, id);
    interfaceOpened(s.world, s.player(id), 'dialogue');
    expect(s.world.events.filter((e) => e.kind === 'shopClosed')).toHaveLength(1);
    open(s, id);
    s.push({ type: 'action', characterId: id, action: 'bank', targetId: BANKER });
    s.step();
    expect(s.eventsOf(id, 'shopClosed')).toHaveLength(2);
    open(s, id);
    s.push({ type: 'leave', characterId: id, reason: 'logout' });
    s.step();
    expect(s.eventsOf(id, 'shopClosed')).toHaveLength(2);
  });

  it('an open shop locks the items against trades (INTERFACE_BLOCKED), and a trade blocks opening a shop', () => {
    const { s, id } = shop();
    const other = s.addPlayer({ name: 'Trader', x: 101, z: 101 });
    open(s, id);
    s.push({ type: 'tradeRequest', characterId: id, targetPlayerId: other });
    s.push({ type: 'tradeRequest', characterId: other, targetPlayerId: id });
    s.push({ type: 'inventoryDrop', characterId: id, slot: 0 });
    s.step();
    expect(codes(s, id)).toEqual(['INTERFACE_BLOCKED', 'INTERFACE_BLOCKED']);
    expect(s.lastEvent(other, 'tradeError')?.data.code).toBe('PLAYER_BUSY');
    expect(s.eventsOf(other, 'tradeIncoming')).toEqual([]);
    s.push({ type: 'shopClose', characterId: id, shopId: 'general' });
    s.step();
    openTrade(s, id, other);
    open(s, id);
    expect(codes(s, id).at(-1)).toBe('INTERFACE_BLOCKED');
    expect(s.eventsOf(id, 'shopOpen')).toHaveLength(1);
  });

  it('property: random buys and sells (some failing in the database) keep coins and items accounted for, never negative', () => {
    let seed = 7;
    const rand = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed % n;
    };
    for (let round = 0; round < 5; round++) {
      const { s, db, id, p } = shop({ coins: 300 });
      open(s, id);
      let coins = 300;
      const held = new Map<string, number>();
      const prices: Record<string, [number, number]> = { feather: [3, 1], shrimp: [20, 5], logs: [15, 5] };
      for (let step = 0; step < 60; step++) {
        const items = Object.keys(prices);
        const itemId = items[rand(items.length)] as string;
        const [buyPrice, sellPrice] = prices[itemId] as [number, number];
        const ok = rand(4) !== 0;
        if (rand(2) === 0) {
          const quantity = 1 + rand(3);
          s.push({ type: 'shopBuy', characterId: id, shopId: 'general', itemId, quantity });
          s.step();
          const tx = db.open.at(-1);
          if (!tx) continue;
          db.settle(ok);
          if (ok) {
            coins -= buyPrice * quantity;
            held.set(itemId, (held.get(itemId) ?? 0) + quantity);
          }
        } else {
          const slot = p().state.inventory.findIndex((x) => x?.itemId === itemId);
          if (slot < 0) continue;
          s.push({ type: 'shopSell', characterId: id, shopId: 'general', slot, quantity: 1 });
          s.step();
          if (db.open.length === 0) continue;
          db.settle(ok);
          if (ok) {
            coins += sellPrice;
            held.set(itemId, (held.get(itemId) ?? 0) - 1);
          }
        }
        const state = p().state;
        expect(state.coins).toBe(coins);
        expect(state.coins).toBeGreaterThanOrEqual(0);
        for (const [itemId, n] of held) {
          const count = state.inventory.reduce((t, x) => t + (x?.itemId === itemId ? x.quantity : 0), 0);
          expect(count).toBe(n);
        }
        const logs = s.lastEvent(id, 'shopUpdate')?.data.items[2]?.stock ?? 5;
        expect(logs).toBeGreaterThanOrEqual(0);
      }
    }
  });
});
