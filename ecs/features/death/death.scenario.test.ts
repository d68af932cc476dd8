import { describe, expect, it } from 'vitest';
import { Scenario } from '../../../tests/scenario/harness.ts';
import { populateWorld } from '../../core/populate.ts';
import { GROUND_ITEMS, groundItemVisibleTo } from '../ground-items/index.ts';
import { FakePersistence } from '../trade/trade-scenario-helpers.ts';

function victim() {
  const s = new Scenario();
  populateWorld(s.world); // the bank booth
  const db = new FakePersistence(s);
  const id = s.addPlayer({
    name: 'Victim',
    x: 40,
    z: 60,
    coins: 77,
    inventory: [
      { itemId: 'logs', quantity: 1 },
      { itemId: 'quest_medal', quantity: 1 },
      { itemId: 'feather', quantity: 12 },
    ],
  });
  s.player(id).state.equipment = { weapon: { itemId: 'bronze_sword', quantity: 1 } };
  // The three most valuable items, kept on death (the rest drops).
  for (const slot of [10, 11, 12])
    s.player(id).state.inventory[slot] = { itemId: 'steel_sword', quantity: 1 };
  return { s, db, id, p: () => s.player(id) };
}

describe('damage and death', () => {
  it('damage lowers health and syncs; BAD_MESSAGE for a negative amount', () => {
    const { s, id, p } = victim();
    s.push({ type: 'damage', characterId: id, amount: 30 });
    s.push({ type: 'damage', characterId: id, amount: -5 });
    s.step();
    expect(s.world.c.Health.current[p().eid]).toBe(70);
    expect(s.lastEvent(id, 'error')?.data.code).toBe('BAD_MESSAGE');
    expect(s.world.persist.dirty.has(id)).toBe(true);
  });

  it('at 0: each tradeable stack and worn item drops under its own death lock; respawn with full health', () => {
    const { s, db, id, p } = victim();
    s.push({ type: 'damage', characterId: id, amount: 500 });
    s.step();
    expect(db.deathLocks.map((l) => l.items)).toEqual([
      [{ itemId: 'logs', quantity: 1 }],
      [{ itemId: 'feather', quantity: 12 }],
      [{ itemId: 'bronze_sword', quantity: 1 }],
    ]);
    // Chained: each lock starts from the holdings the previous one left, the last one leaves the medal.
    const [l1, l2, l3] = db.deathLocks;
    expect(l1?.before.inventory[0]).toEqual({ itemId: 'logs', quantity: 1 });
    expect(l2?.before).toEqual(l1?.after);
    expect(l3?.before).toEqual(l2?.after);
    expect(l3?.before.equipment).toEqual({ weapon: { itemId: 'bronze_sword', quantity: 1 } });
    expect(l3?.after.equipment).toEqual({});
    expect(l3?.after.inventory.filter(Boolean)).toEqual([
      { itemId: 'quest_medal', quantity: 1 },
      ...Array(3).fill({ itemId: 'steel_sword', quantity: 1 }),
    ]);
    expect(l1?.position).toMatchObject({ x: 40, z: 60 });
    const ground = [...s.world.get(GROUND_ITEMS).byEid.values()];
    expect(ground.map((g) => [g.itemId, g.quantity, g.ownerId, g.deathLockId])).toEqual([
      ['logs', 1, id, l1?.id],
      ['feather', 12, id, l2?.id],
      ['bronze_sword', 1, id, l3?.id],
    ]);
    for (const g of ground)
      expect([s.world.c.Position.x[g.eid], s.world.c.Position.z[g.eid]]).toEqual([40, 60]);
    expect(s.position(id)).toEqual(s.world.content.spawn);
    expect(s.world.c.Health.current[p().eid]).toBe(100);
    expect(p().state.coins).toBe(77);
    expect(p().state.inventory.filter(Boolean)).toEqual([
      { itemId: 'quest_medal', quantity: 1 },
      ...Array(3).fill({ itemId: 'steel_sword', quantity: 1 }),
    ]);
    expect(p().state.equipment).toEqual({});
  });

  it('picking up a death-dropped item is an item transaction that takes it out of the lock', () => {
    const { s, db, id } = victim();
    s.push({ type: 'damage', characterId: id, amount: 500 });
    s.step();
    const lockId = db.deathLocks[1]?.id;
    s.player(id).admin = true;
    s.push({ type: 'chatCommand', characterId: id, name: 'tp', args: ['40', '60'] });
    s.step();
    s.push({ type: 'action', characterId: id, action: 'pickup', targetId: 'item-2' });
    s.step();
    const tx = db.last();
    expect(tx).toMatchObject({
      kind: 'death',
      conserve: false,
      deathLock: { id: lockId, items: [{ itemId: 'feather', quantity: 12 }] },
    });
    expect(s.world.eidByWireId.has('item-2')).toBe(false);
    db.settle(false);
    // Refused: it lies on the ground again, still under the lock.
    const back = [...s.world.get(GROUND_ITEMS).byEid.values()].find((g) => g.itemId === 'feather');
    expect(back?.deathLockId).toBe(lockId);
    s.push({
      type: 'action',
      characterId: id,
      action: 'pickup',
      targetId: s.world.wireIds[back?.eid ?? 0] ?? '',
    });
    s.step();
    db.settle(true);
    expect(s.player(id).state.inventory.some((x) => x?.itemId === 'feather' && x.quantity === 12)).toBe(true);
  });

  it('keeps the 3 most valuable items, counting a stack item by item; the rest drops for the owner only', () => {
    const s = new Scenario();
    const db = new FakePersistence(s);
    const id = s.addPlayer({
      name: 'Keeper',
      x: 40,
      z: 60,
      inventory: [
        { itemId: 'logs', quantity: 1 },
        { itemId: 'feather', quantity: 12 },
        { itemId: 'bronze_2h', quantity: 1 },
      ],
    });
    const other = s.addPlayer({ name: 'Looter', x: 41, z: 60 });
    s.player(id).state.equipment = { shield: { itemId: 'wooden_shield', quantity: 1 } };
    s.push({ type: 'damage', characterId: id, amount: 500 });
    s.step();
    // Values: 2h 200, shield 40, logs 10, feathers 2 each: the 2h, the shield and the logs stay.
    expect(s.player(id).state.inventory.filter(Boolean)).toEqual([
      { itemId: 'logs', quantity: 1 },
      { itemId: 'bronze_2h', quantity: 1 },
    ]);
    expect(s.player(id).state.equipment).toEqual({ shield: { itemId: 'wooden_shield', quantity: 1 } });
    expect(db.deathLocks.map((l) => l.items)).toEqual([[{ itemId: 'feather', quantity: 12 }]]);
    const [g] = [...s.world.get(GROUND_ITEMS).byEid.values()];
    expect(groundItemVisibleTo(s.world, g?.eid ?? -1, id)).toBe(true);
    expect(groundItemVisibleTo(s.world, g?.eid ?? -1, other)).toBe(false);
    s.step(100); // 60 s at 600 ms
    expect(groundItemVisibleTo(s.world, g?.eid ?? -1, other)).toBe(true);
  });

  it('a stack among the 3 most valuable is split: part kept, the rest dropped', () => {
    const s = new Scenario();
    const db = new FakePersistence(s);
    const id = s.addPlayer({
      name: 'Splitter',
      x: 40,
      z: 60,
      inventory: [
        { itemId: 'feather', quantity: 12 },
        { itemId: 'logs', quantity: 1 },
      ],
    });
    s.push({ type: 'damage', characterId: id, amount: 500 });
    s.step();
    expect(s.player(id).state.inventory.filter(Boolean)).toEqual([
      { itemId: 'feather', quantity: 2 },
      { itemId: 'logs', quantity: 1 },
    ]);
    expect(db.deathLocks.map((l) => l.items)).toEqual([[{ itemId: 'feather', quantity: 10 }]]);
  });

  it('a death-dropped item that despawns resolves its lock without a claim', () => {
    const { s, db, id } = victim();
    s.push({ type: 'damage', characterId: id, amount: 500 });
    s.step();
    s.step(300);
    expect(s.world.get(GROUND_ITEMS).byEid.size).toBe(0);
    expect(db.open.map((t) => t.deathLock?.items[0]?.itemId)).toEqual(['logs', 'feather', 'bronze_sword']);
    expect(db.open.every((t) => t.changes.length === 0)).toBe(true);
  });

  it('a character saved at 0 health (it left while its death waited) dies in the tick it enters', () => {
    const s = new Scenario();
    const db = new FakePersistence(s);
    const id = s.addPlayer({
      name: 'Returns',
      x: 40,
      z: 60,
      health: 0,
      inventory: [{ itemId: 'feather', quantity: 12 }],
    });
    expect(s.eventsOf(id, 'entityDeath').map((e) => e.tick)).toEqual([s.world.tick]);
    expect(db.deathLocks.map((l) => [l.position.x, l.position.z, l.items])).toEqual([
      [40, 60, [{ itemId: 'feather', quantity: 9 }]],
    ]);
    expect(s.position(id)).toEqual(s.world.content.spawn);
    expect(s.world.c.Health.current[s.player(id).eid]).toBe(100);
  });

  it('a death while an item transaction is in flight waits for its outcome, then happens in that tick', () => {
    const { s, db, id, p } = victim();
    s.addPlayer({ name: 'Near', x: 41, z: 60 });
    p().state.inventory[5] = { itemId: 'bones', quantity: 1 };
    s.push({ type: 'chatCommand', characterId: id, name: 'tp', args: ['98', '100'] });
    p().admin = true;
    s.step();
    s.push({ type: 'bankDeposit', characterId: id, slot: 5 });
    s.step();
    s.push({ type: 'damage', characterId: id, amount: 500 });
    s.step(2);
    expect(db.deathLocks).toEqual([]);
    // Dead meanwhile: its own commands are refused (it cannot walk off or start another transaction).
    s.push({ type: 'move', characterId: id, x: 90, z: 100, run: false, origin: 'player:move' });
    s.push({ type: 'bankWithdraw', characterId: id, itemId: 'bones', origin: 'bank:withdraw' });
    s.step();
    expect(
      s
        .eventsOf(id, 'error')
        .slice(-2)
        .map((e) => e.data),
    ).toEqual([
      { code: 'BUSY', message: 'you are dead until you respawn', event: 'player:move' },
      { code: 'BUSY', message: 'you are dead until you respawn', event: 'bank:withdraw' },
    ]);
    expect(s.position(id)).toEqual({ x: 98, z: 100 });
    expect(db.open).toHaveLength(1);
    db.settle(true);
    // The outcome is applied and the death follows in the same tick, from the committed holdings; those
    // changed this tick, so the first lock asks persistence to save them first.
    expect(db.deathLocks).toHaveLength(3);
    expect(db.deathLocks.map((l) => l.settleFirst)).toEqual([true, undefined, undefined]);
    expect(db.deathLocks[0]?.before.bank).toEqual([{ itemId: 'bones', quantity: 1 }]);
  });
});
