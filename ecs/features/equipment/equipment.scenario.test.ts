import { describe, expect, it } from 'vitest';
import { Scenario } from '../../../tests/scenario/harness.ts';
import type { ItemStack } from '../../core/character-state.ts';
import { equipmentBonuses } from './equip.ts';

function wearer(inventory: (ItemStack | null)[]) {
  const s = new Scenario();
  const id = s.addPlayer({ name: 'Knight', inventory });
  const use = (slot: number) => {
    s.push({ type: 'inventoryUse', characterId: id, slot });
    s.step();
  };
  return { s, id, use, p: () => s.player(id) };
}

describe('equipment', () => {
  it('equipping moves the item to its slot and sums bonuses', () => {
    const { s, use, p } = wearer([
      { itemId: 'bronze_sword', quantity: 1 },
      { itemId: 'wooden_shield', quantity: 1 },
    ]);
    use(0);
    use(1);
    expect(p().state.equipment).toEqual({
      weapon: { itemId: 'bronze_sword', quantity: 1 },
      shield: { itemId: 'wooden_shield', quantity: 1 },
    });
    expect(p().state.inventory.slice(0, 2)).toEqual([null, null]);
    expect(equipmentBonuses(s.world, p())).toEqual({ attack: 4, strength: 3, defense: 2 });
  });

  it('a requirement not met is refused', () => {
    const { s, id, use, p } = wearer([{ itemId: 'steel_sword', quantity: 1 }]);
    use(0);
    expect(s.lastEvent(id, 'error')?.data.code).toBe('REQUIREMENT_NOT_MET');
    expect(p().state.equipment).toEqual({});
    p().state.skills.attack.level = 5;
    use(0);
    expect(p().state.equipment.weapon?.itemId).toBe('steel_sword');
  });

  it('swapping weapons puts the old one in the freed slot', () => {
    const { use, p } = wearer([
      { itemId: 'bronze_sword', quantity: 1 },
      { itemId: 'bronze_2h', quantity: 1 },
    ]);
    use(0);
    use(1);
    expect(p().state.equipment.weapon?.itemId).toBe('bronze_2h');
    expect(p().state.inventory[1]).toEqual({ itemId: 'bronze_sword', quantity: 1 });
  });

  it('a two-handed weapon takes the shield off; a shield takes a two-handed weapon off', () => {
    const { use, p } = wearer([
      { itemId: 'wooden_shield', quantity: 1 },
      { itemId: 'bronze_2h', quantity: 1 },
    ]);
    use(0);
    use(1);
    expect(p().state.equipment).toEqual({ weapon: { itemId: 'bronze_2h', quantity: 1 } });
    expect(p().state.inventory.slice(0, 2)).toEqual([null, { itemId: 'wooden_shield', quantity: 1 }]);
    use(1);
    expect(p().state.equipment).toEqual({ shield: { itemId: 'wooden_shield', quantity: 1 } });
    expect(p().state.inventory[1]).toEqual({ itemId: 'bronze_2h', quantity: 1 });
  });

  it('INVENTORY_FULL when what comes off does not fit; nothing changes', () => {
    const inv: ItemStack[] = Array.from({ length: 28 }, () => ({ itemId: 'bones', quantity: 1 }));
    inv[0] = { itemId: 'bronze_2h', quantity: 1 };
    const { s, id, p } = wearer(inv);
    p().state.equipment = {
      weapon: { itemId: 'bronze_sword', quantity: 1 },
      shield: { itemId: 'wooden_shield', quantity: 1 },
    };
    s.push({ type: 'inventoryUse', characterId: id, slot: 0 });
    s.step();
    expect(s.lastEvent(id, 'error')?.data.code).toBe('INVENTORY_FULL');
    expect(p().state.equipment.weapon?.itemId).toBe('bronze_sword');
    expect(p().state.inventory[0]?.itemId).toBe('bronze_2h');
  });

  it('unequip to the inventory; INVENTORY_FULL when full, INVALID_SLOT for an empty or unknown slot', () => {
    const full: ItemStack[] = Array.from({ length: 28 }, () => ({ itemId: 'bones', quantity: 1 }));
    const { s, id, p } = wearer(full);
    p().state.equipment = { weapon: { itemId: 'bronze_sword', quantity: 1 } };
    for (const slot of ['weapon', 'helmet', 'tail']) s.push({ type: 'unequip', characterId: id, slot });
    s.step();
    expect(s.eventsFor(id, 'error').map((e) => (e.data as { code: string }).code)).toEqual([
      'INVENTORY_FULL',
      'INVALID_SLOT',
      'INVALID_SLOT',
    ]);
    p().state.inventory[3] = null;
    s.push({ type: 'unequip', characterId: id, slot: 'weapon' });
    s.step();
    expect(p().state.equipment).toEqual({});
    expect(p().state.inventory[3]).toEqual({ itemId: 'bronze_sword', quantity: 1 });
    expect(p().syncDirty).toBe(true);
  });
});
