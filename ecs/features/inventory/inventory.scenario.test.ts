import { describe, expect, it } from 'vitest';
import { testContent } from '../../../tests/helpers/sim-content.ts';
import { Scenario } from '../../../tests/scenario/harness.ts';
import { defineFeature } from '../../core/feature.ts';
import { GROUND_ITEMS } from '../ground-items/index.ts';
import { addItem } from './slots.ts';

describe('inventory', () => {
  it('stackables merge into one stack, non-stackables take one slot each, coins go to the pouch', () => {
    const content = testContent();
    const purse = { inventory: Array.from({ length: 28 }, () => null), coins: 5 } as Parameters<
      typeof addItem
    >[1];
    expect(addItem(content, purse, 'feather', 10)).toBe(true);
    expect(addItem(content, purse, 'feather', 5)).toBe(true);
    expect(addItem(content, purse, 'logs', 3)).toBe(true);
    expect(addItem(content, purse, 'coins', 7)).toBe(true);
    expect(purse.inventory.slice(0, 5)).toEqual([
      { itemId: 'feather', quantity: 15 },
      { itemId: 'logs', quantity: 1 },
      { itemId: 'logs', quantity: 1 },
      { itemId: 'logs', quantity: 1 },
      null,
    ]);
    expect(purse.coins).toBe(12);
    expect(addItem(content, purse, 'logs', 25)).toBe(false);
    expect(addItem(content, purse, 'logs', 0)).toBe(false);
  });

  it('eating heals up to the maximum and consumes one; syncs and commits within the tick', () => {
    const s = new Scenario();
    const id = s.addPlayer({ name: 'Eater', health: 40, inventory: [{ itemId: 'shrimp', quantity: 1 }] });
    s.push({ type: 'inventoryUse', characterId: id, slot: 0 });
    s.step();
    const p = s.player(id);
    expect(s.world.c.Health.current[p.eid]).toBe(43);
    expect(p.state.inventory[0]).toBeNull();
    expect(s.world.persist.itemsChanged.has(id)).toBe(true);
    const full = s.addPlayer({ name: 'Full', health: 100, inventory: [{ itemId: 'shrimp', quantity: 1 }] });
    s.push({ type: 'inventoryUse', characterId: full, slot: 0 });
    s.step();
    expect(s.world.c.Health.current[s.player(full).eid]).toBe(100);
  });

  it('use errors: INVALID_SLOT for empty or out of range, nothing interesting happens otherwise', () => {
    const s = new Scenario();
    const id = s.addPlayer({
      name: 'User',
      inventory: [
        { itemId: 'logs', quantity: 1 },
        { itemId: 'bones', quantity: 1 },
      ],
    });
    for (const slot of [5, 28, -1]) {
      s.push({ type: 'inventoryUse', characterId: id, slot });
      s.step();
      expect(s.lastEvent(id, 'error')?.data.code).toBe('INVALID_SLOT');
    }
    s.push({ type: 'inventoryUse', characterId: id, slot: 0, targetSlot: 1 });
    s.step();
    expect(s.lastEvent(id, 'error')?.data).toMatchObject({
      code: 'INVALID_TARGET',
      message: 'Nothing interesting happens.',
    });
    s.push({ type: 'inventoryUse', characterId: id, slot: 0, targetSlot: 9 });
    s.step();
    expect(s.lastEvent(id, 'error')?.data.code).toBe('INVALID_SLOT');
  });

  it('item-on-item uses go to the features that registered an itemUse reaction', () => {
    const seen: number[] = [];
    const crafting = defineFeature({
      name: 'crafting-probe',
      on: {
        itemUse: (_w, _p, cmd) => {
          seen.push(cmd.targetSlot ?? -1);
          return true;
        },
      },
    });
    const s = new Scenario({ features: [crafting] });
    const id = s.addPlayer({
      name: 'Crafter',
      inventory: [
        { itemId: 'logs', quantity: 1 },
        { itemId: 'feather', quantity: 3 },
      ],
    });
    s.push({ type: 'inventoryUse', characterId: id, slot: 0, targetSlot: 1 });
    s.step();
    expect(seen).toEqual([1]);
    expect(s.eventsFor(id, 'error')).toEqual([]);
  });

  it('inventoryMove swaps two slots; an empty source or a bad slot is INVALID_SLOT', () => {
    const s = new Scenario();
    const id = s.addPlayer({
      name: 'Mover',
      inventory: [{ itemId: 'logs', quantity: 1 }, null, { itemId: 'bones', quantity: 1 }],
    });
    s.push({ type: 'inventoryMove', characterId: id, from: 0, to: 2 });
    s.push({ type: 'inventoryMove', characterId: id, from: 2, to: 27 });
    s.step();
    const inv = s.player(id).state.inventory;
    expect([inv[0], inv[2], inv[27]]).toEqual([
      { itemId: 'bones', quantity: 1 },
      null,
      { itemId: 'logs', quantity: 1 },
    ]);
    s.push({ type: 'inventoryMove', characterId: id, from: 1, to: 0 });
    s.push({ type: 'inventoryMove', characterId: id, from: 0, to: 28 });
    s.step();
    expect(s.eventsFor(id, 'error').map((e) => (e.data as { code: string }).code)).toEqual([
      'INVALID_SLOT',
      'INVALID_SLOT',
    ]);
  });

  it('dropping makes a ground item at the player tile; INVALID_QUANTITY over the stack', () => {
    const s = new Scenario();
    const id = s.addPlayer({
      name: 'Dropper',
      x: 30,
      z: 40,
      inventory: [{ itemId: 'feather', quantity: 10 }],
    });
    s.push({ type: 'inventoryDrop', characterId: id, slot: 0, quantity: 11 });
    s.step();
    expect(s.lastEvent(id, 'error')?.data.code).toBe('INVALID_QUANTITY');
    s.push({ type: 'inventoryDrop', characterId: id, slot: 0, quantity: 4 });
    s.step();
    const [g] = [...s.world.get(GROUND_ITEMS).byEid.values()];
    expect(g).toMatchObject({ itemId: 'feather', quantity: 4, ownerId: id });
    expect(s.world.wireIds[g?.eid ?? -1]).toBe('item-1');
    expect([s.world.c.Position.x[g?.eid ?? 0], s.world.c.Position.z[g?.eid ?? 0]]).toEqual([30, 40]);
    expect(s.player(id).state.inventory[0]).toEqual({ itemId: 'feather', quantity: 6 });
    expect(s.world.persist.itemsChanged.has(id)).toBe(true);
  });
});
