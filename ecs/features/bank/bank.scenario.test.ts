import { describe, expect, it } from 'vitest';
import { Scenario } from '../../../tests/scenario/harness.ts';
import type { ItemStack } from '../../core/character-state.ts';
import { populateWorld } from '../../core/populate.ts';
import { spawnEntity } from '../../core/world.ts';
import { txInFlight } from '../inventory/index.ts';
import { NPCS } from '../npcs/index.ts';
import { STATIONS } from '../stations/index.ts';
import { FakePersistence } from '../trade/trade-scenario-helpers.ts';

/** The test content has a bank station at (97, 100); the spawn is (100, 100). */
function banker(inventory: (ItemStack | null)[] = [], bank: ItemStack[] = [], x = 98) {
  const s = new Scenario();
  populateWorld(s.world);
  const db = new FakePersistence(s);
  const id = s.addPlayer({ name: 'Saver', x, z: 100, inventory, bank });
  return { s, db, id, p: () => s.player(id) };
}

function boothId(s: Scenario): string {
  for (const st of s.world.get(STATIONS).byEid.values()) {
    if (st.stationType === 'bank') return s.world.wireIds[st.eid] as string;
  }
  throw new Error('the test content has no bank station');
}

describe('bank', () => {
  it('player:action bank on the booth walks there and opens it (bankUpdate); deposits away from a bank are TOO_FAR', () => {
    const near = banker([], [{ itemId: 'logs', quantity: 3 }], 101);
    const booth = boothId(near.s);
    near.s.push({ type: 'action', characterId: near.id, action: 'bank', targetId: booth });
    near.s.step();
    expect(near.s.lastEvent(near.id, 'bankUpdate')).toBeUndefined();
    near.s.step(4);
    expect(near.s.lastEvent(near.id, 'bankUpdate')?.data).toEqual({
      items: [{ itemId: 'logs', quantity: 3 }],
    });
    expect(Math.abs(near.s.position(near.id).x - 97)).toBeLessThanOrEqual(1);
    const far = banker([], [], 100);
    far.s.push({ type: 'bankDeposit', characterId: far.id, slot: 0 });
    far.s.push({ type: 'bankWithdraw', characterId: far.id, itemId: 'logs' });
    far.s.step();
    expect(far.s.eventsFor(far.id, 'error').map((e) => (e.data as { code: string }).code)).toEqual([
      'TOO_FAR',
      'TOO_FAR',
    ]);
  });

  it('a target that is not a bank is INVALID_TARGET; an unknown one NOT_FOUND', () => {
    const { s, id } = banker([], [], 98);
    const other = s.addPlayer({ name: 'NotABank', x: 99, z: 100 });
    s.push({
      type: 'action',
      characterId: id,
      action: 'bank',
      targetId: s.world.wireIds[s.player(other).eid] as string,
    });
    s.push({ type: 'action', characterId: id, action: 'bank', targetId: 'st-999' });
    s.step();
    expect(s.eventsFor(id, 'error').map((e) => (e.data as { code: string }).code)).toEqual([
      'INVALID_TARGET',
      'NOT_FOUND',
    ]);
    expect(s.lastEvent(id, 'bankUpdate')).toBeUndefined();
  });

  it('a bank NPC (service bank) counts as a bank', () => {
    const { s, id } = banker([], [], 150);
    const eid = spawnEntity(s.world, 'npc', 'npc-banker', 151, 101);
    s.world
      .get(NPCS)
      .byEid.set(eid, { eid, npcId: 'banker', name: 'Banker', level: 1, spawnIndex: 0, service: 'bank' });
    s.push({ type: 'action', characterId: id, action: 'bank', targetId: 'npc-banker' });
    s.step();
    expect(s.lastEvent(id, 'bankUpdate')).toBeDefined();
  });

  it('deposit is one conserving transaction; nothing shows until it commits; the player is BUSY meanwhile', () => {
    const { s, db, id, p } = banker(
      [
        { itemId: 'feather', quantity: 30 },
        { itemId: 'logs', quantity: 1 },
      ],
      [{ itemId: 'feather', quantity: 5 }],
    );
    s.push({ type: 'bankDeposit', characterId: id, slot: 0, quantity: 10 });
    s.step();
    const tx = db.last();
    expect(tx).toMatchObject({ kind: 'bank_deposit', conserve: true, requesterId: id });
    expect(tx.changes[0]?.before.bank).toEqual([{ itemId: 'feather', quantity: 5 }]);
    expect(tx.changes[0]?.after.bank).toEqual([{ itemId: 'feather', quantity: 15 }]);
    expect(tx.changes[0]?.after.inventory[0]).toEqual({ itemId: 'feather', quantity: 20 });
    expect(p().state.inventory[0]).toEqual({ itemId: 'feather', quantity: 30 });
    expect(s.eventsFor(id, 'bankUpdate')).toEqual([]);
    s.push({ type: 'bankDeposit', characterId: id, slot: 1 });
    s.push({ type: 'inventoryDrop', characterId: id, slot: 1 });
    s.step();
    expect(s.eventsFor(id, 'error').map((e) => (e.data as { code: string }).code)).toEqual(['BUSY', 'BUSY']);
    db.settle(true);
    expect(s.lastEvent(id, 'bankUpdate')?.data.items).toEqual([{ itemId: 'feather', quantity: 15 }]);
    expect(p().state.inventory[0]).toEqual({ itemId: 'feather', quantity: 20 });
    expect(txInFlight(s.world, p().characterId)).toBe(false);
    expect(p().syncDirty).toBe(true);
  });

  it('a refused deposit keeps the before state and tells the player', () => {
    const { s, db, id, p } = banker([{ itemId: 'logs', quantity: 1 }]);
    s.push({ type: 'bankDeposit', characterId: id, slot: 0 });
    s.step();
    db.settle(false);
    expect(p().state.inventory[0]).toEqual({ itemId: 'logs', quantity: 1 });
    expect(p().state.bank).toEqual([]);
    expect(s.lastEvent(id, 'error')?.data.code).toBe('BUSY');
  });

  it('every item stacks in the bank; a non-stackable deposit of n takes n slots', () => {
    const logs = { itemId: 'logs', quantity: 1 };
    const { s, db, id, p } = banker([
      { ...logs },
      { itemId: 'bones', quantity: 1 },
      { ...logs },
      { ...logs },
    ]);
    s.push({ type: 'bankDeposit', characterId: id, slot: 2, quantity: 2 });
    s.step();
    db.settle(true);
    expect(p().state.bank).toEqual([{ itemId: 'logs', quantity: 2 }]);
    expect(p().state.inventory.slice(0, 4)).toEqual([null, { itemId: 'bones', quantity: 1 }, null, logs]);
    s.push({ type: 'bankDeposit', characterId: id, slot: 3, quantity: 2 });
    s.push({ type: 'bankDeposit', characterId: id, slot: 3 });
    s.push({ type: 'bankDeposit', characterId: id, slot: 1 });
    s.step();
    expect(s.eventsFor(id, 'error').map((e) => (e.data as { code: string }).code)).toEqual([
      'INVALID_QUANTITY',
      'BUSY',
    ]);
  });

  it('withdraw: stackables as one stack, non-stackables one per free slot as many as fit', () => {
    const inv = Array.from({ length: 26 }, () => ({ itemId: 'bones', quantity: 1 }));
    const { s, db, id, p } = banker(inv, [
      { itemId: 'logs', quantity: 5 },
      { itemId: 'feather', quantity: 100 },
    ]);
    s.push({ type: 'bankWithdraw', characterId: id, itemId: 'logs' });
    s.step();
    db.settle(true);
    expect(p().state.inventory.slice(26)).toEqual([
      { itemId: 'logs', quantity: 1 },
      { itemId: 'logs', quantity: 1 },
    ]);
    expect(p().state.bank).toEqual([
      { itemId: 'logs', quantity: 3 },
      { itemId: 'feather', quantity: 100 },
    ]);
    s.push({ type: 'bankWithdraw', characterId: id, itemId: 'logs' });
    s.push({ type: 'bankWithdraw', characterId: id, itemId: 'feather', quantity: 40 });
    s.step();
    expect(s.lastEvent(id, 'error')?.data.code).toBe('INVENTORY_FULL');
    p().state.inventory[0] = null;
    s.push({ type: 'bankWithdraw', characterId: id, itemId: 'feather', quantity: 40 });
    s.step();
    db.settle(true);
    expect(p().state.inventory[0]).toEqual({ itemId: 'feather', quantity: 40 });
    expect(p().state.bank[1]).toEqual({ itemId: 'feather', quantity: 60 });
  });

  it('withdraw errors: NOT_FOUND for an item not banked, INVALID_QUANTITY over the bank stack', () => {
    const { s, id } = banker([], [{ itemId: 'logs', quantity: 2 }]);
    s.push({ type: 'bankWithdraw', characterId: id, itemId: 'shrimp' });
    s.push({ type: 'bankWithdraw', characterId: id, itemId: 'logs', quantity: 3 });
    s.push({ type: 'bankDeposit', characterId: id, slot: 4 });
    s.step();
    expect(s.eventsFor(id, 'error').map((e) => (e.data as { code: string }).code)).toEqual([
      'NOT_FOUND',
      'INVALID_QUANTITY',
      'INVALID_SLOT',
    ]);
  });
});
