import { describe, expect, it } from 'vitest';
import { Scenario } from '../../../tests/scenario/harness.ts';
import { bank } from '../bank/index.ts';
import { groundItemVisibleTo } from './ground-items.ts';
import { GROUND_ITEMS } from './index.ts';

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
    const [logs] = [...s.world.get(GROUND_ITEMS).byEid.keys()];
    const eid = logs as number;
    expect(groundItemVisibleTo(s.world, eid, owner)).toBe(true);
    expect(groundItemVisibleTo(s.world, eid, other)).toBe(false);
    s.step(99);
    expect(groundItemVisibleTo(s.world, eid, other)).toBe(false);
    s.step(1);
    expect(groundItemVisibleTo(s.world, eid, other)).toBe(true);
    expect(s.world.changed).toContain(eid);
    s.step(199);
    expect(s.world.get(GROUND_ITEMS).byEid.has(eid)).toBe(true);
    s.step(1);
    expect(s.world.get(GROUND_ITEMS).byEid.has(eid)).toBe(false);
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

  it('pickup: INVENTORY_FULL when it does not fit, NOT_FOUND for no such item; an item out of reach is walked to', () => {
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
    // Two tiles away: the player walks next to the item and picks it up in the same tick, with no error.
    const itemX = 50;
    expect(s.eventsFor(far, 'error')).toEqual([]);
    expect(s.world.eidByWireId.has('item-1')).toBe(false);
    expect(s.player(far).state.inventory.some((x) => x !== null)).toBe(true);
    expect(Math.abs((s.world.c.Position.x[s.player(far).eid] as number) - itemX)).toBeLessThanOrEqual(1);
  });

  it('an approach ends silently when the target disappears, and a move cancels it', () => {
    const { s, owner } = dropScene();
    s.step(100);
    const walker = s.addPlayer({ name: 'Walker', x: 60, z: 50 });
    s.push({ type: 'action', characterId: walker, action: 'pickup', targetId: 'item-1' });
    s.push({ type: 'action', characterId: owner, action: 'pickup', targetId: 'item-1' });
    s.step(12);
    expect(s.eventsFor(walker, 'error')).toEqual([]);
    expect(s.player(walker).state.inventory.every((x) => x === null)).toBe(true);
    const mover = s.addPlayer({ name: 'Mover', x: 60, z: 52 });
    s.push({ type: 'action', characterId: mover, action: 'pickup', targetId: 'item-2' });
    s.step();
    s.push({ type: 'move', characterId: mover, x: 70, z: 52, run: false });
    s.step(15);
    expect(s.world.eidByWireId.has('item-2')).toBe(true);
    expect(s.world.c.Position.x[s.player(mover).eid]).toBe(70);
  });

  it('a verb no feature of the world answers is refused with BAD_MESSAGE and changes nothing', () => {
    const s = new Scenario({ without: [bank] });
    const id = s.addPlayer({ name: 'Nobank' });
    s.push({ type: 'action', characterId: id, action: 'bank', targetId: 'npc-1' });
    s.step();
    expect(s.lastEvent(id, 'error')?.data).toMatchObject({
      code: 'BAD_MESSAGE',
      message: 'bank is not offered by this world',
    });
  });
});
