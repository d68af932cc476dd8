import { describe, expect, it } from 'vitest';
import { groundItemVisibleTo } from '../../ecs/ground-items/ground-items.ts';
import { Scenario } from './harness.ts';

function dropScene() {
  const s = new Scenario();
  const owner = s.addPlayer({
    name: 'Owner',
    x: 50,
    z: 50,
    inventory: [
      { itemId: 'logs', quantity: 1 },
      { itemId: 'feather', quantity: 9 },
    ],
  });
  const other = s.addPlayer({ name: 'Other', x: 51, z: 51, inventory: [{ itemId: 'feather', quantity: 1 }] });
  s.push({ type: 'inventoryDrop', characterId: owner, slot: 0 });
  s.push({ type: 'inventoryDrop', characterId: owner, slot: 1 });
  s.step();
  return { s, owner, other };
}

describe('ground items', () => {
  it('only the owner sees a drop for 60 s, then everyone; it despawns after 180 s', () => {
    const { s, owner, other } = dropScene();
    const [logs] = [...s.world.groundItems.keys()];
    const eid = logs as number;
    expect(groundItemVisibleTo(s.world, eid, owner)).toBe(true);
    expect(groundItemVisibleTo(s.world, eid, other)).toBe(false);
    s.step(99);
    expect(groundItemVisibleTo(s.world, eid, other)).toBe(false);
    s.step(1);
    expect(groundItemVisibleTo(s.world, eid, other)).toBe(true);
    expect(s.world.changed).toContain(eid);
    s.step(199);
    expect(s.world.groundItems.has(eid)).toBe(true);
    s.step(1);
    expect(s.world.groundItems.has(eid)).toBe(false);
    expect(s.world.despawned.map((d) => d.wireId)).toEqual(['item-1', 'item-2']);
  });

  it('pickup: NOT_FOUND while it is not visible to you, then it merges into your stack', () => {
    const { s, other } = dropScene();
    s.push({ type: 'action', characterId: other, action: 'pickup', targetId: 'item-2' });
    s.step();
    expect(s.lastEvent(other, 'error')?.data.code).toBe('NOT_FOUND');
    s.step(100);
    s.push({ type: 'action', characterId: other, action: 'pickup', targetId: 'item-2' });
    s.step();
    expect(s.player(other).state.inventory[0]).toEqual({ itemId: 'feather', quantity: 10 });
    expect(s.world.eidByWireId.has('item-2')).toBe(false);
    expect(s.world.persist.itemsChanged.has(other)).toBe(true);
  });

  it('pickup: TOO_FAR beyond one tile, INVENTORY_FULL when it does not fit, NOT_FOUND for no such item', () => {
    const { s, owner } = dropScene();
    s.player(owner).state.inventory = Array.from({ length: 28 }, () => ({ itemId: 'bones', quantity: 1 }));
    s.push({ type: 'action', characterId: owner, action: 'pickup', targetId: 'item-1' });
    s.push({ type: 'action', characterId: owner, action: 'pickup', targetId: 'item-99' });
    s.step();
    const far = s.addPlayer({ name: 'Far', x: 52, z: 50 });
    s.step(100);
    s.push({ type: 'action', characterId: far, action: 'pickup', targetId: 'item-1' });
    s.step();
    expect(s.eventsFor(owner, 'error').map((e) => (e.data as { code: string }).code)).toEqual([
      'INVENTORY_FULL',
      'NOT_FOUND',
    ]);
    expect(s.lastEvent(far, 'error')?.data.code).toBe('TOO_FAR');
    expect(s.world.groundItems.size).toBe(2);
  });

  it('other actions are not available yet', () => {
    const { s, owner } = dropScene();
    s.push({ type: 'action', characterId: owner, action: 'shop', targetId: 'npc-1' });
    s.step();
    expect(s.lastEvent(owner, 'error')?.data).toMatchObject({ code: 'BAD_MESSAGE' });
  });
});
