import { describe, expect, it } from 'vitest';
import { AT, SKILL_RECIPES, skillsContent } from '../../../tests/helpers/skills-content.ts';
import { Scenario } from '../../../tests/scenario/harness.ts';
import type { ItemStack } from '../../core/character-state.ts';
import { populateWorld } from '../../core/populate.ts';
import { type Skill, xpForLevel } from '../../core/skills.ts';
import { worldHash } from '../../core/world-hash.ts';
import { RESOURCES } from '../resources/index.ts';
import { placeStation, STATIONS } from '../stations/index.ts';
import type { RecipeInfo } from './content.ts';
import { burnChance } from './make.ts';

function setup(seed = 11) {
  const s = new Scenario({ content: skillsContent(), seed });
  populateWorld(s.world);
  const station = (type: string) => {
    for (const st of s.world.get(STATIONS).byEid.values()) {
      if (st.stationType === type) return s.world.wireIds[st.eid] as string;
    }
    throw new Error(type);
  };
  const add = (inventory: ItemStack[], at: { x: number; z: number }, coins = 0) =>
    s.addPlayer({ name: `P${s.world.players.size}`, ...at, inventory, coins });
  const make = (id: string, recipeId: string, quantity?: number, targetId?: string) => {
    s.push({ type: 'skillMake', characterId: id, recipeId, quantity, targetId, origin: 'skill:make' });
    s.step();
  };
  const setLevel = (id: string, skill: Skill, level: number) => {
    s.player(id).state.skills[skill] = { level, xp: xpForLevel(level) };
  };
  const count = (id: string, itemId: string) =>
    s.player(id).state.inventory.reduce((n, st) => n + (st?.itemId === itemId ? st.quantity : 0), 0);
  const stop = (id: string) => s.lastEvent(id, 'processingStop')?.data;
  const error = (id: string) => s.lastEvent(id, 'error')?.data;
  return { s, station, add, make, setLevel, count, stop, error };
}

const by = (at: { x: number; z: number }) => ({ x: at.x, z: at.z - 1 });
const many = (itemId: string, n: number): ItemStack[] =>
  Array.from({ length: n }, () => ({ itemId, quantity: 1 }));

describe('processing: refusals', () => {
  it('an unknown recipe is NOT_FOUND; without the station it is INVALID_TARGET; far from it TOO_FAR', () => {
    const { add, make, error, station } = setup();
    const id = add([...many('copper_ore', 1), ...many('tin_ore', 1)], { x: 100, z: 100 });
    make(id, 'mithril_bar');
    expect(error(id)).toMatchObject({ code: 'NOT_FOUND', event: 'skill:make' });
    make(id, 'bronze_bar');
    expect(error(id)).toMatchObject({ code: 'INVALID_TARGET', message: /furnace/ });
    make(id, 'bronze_bar', 1, station('furnace'));
    expect(error(id)?.code).toBe('TOO_FAR');
    make(id, 'bronze_bar', 1, station('anvil'));
    expect(error(id)?.code).toBe('INVALID_TARGET');
  });

  it('LEVEL_TOO_LOW names the requirement; MISSING_ITEMS; MISSING_TOOL; INSUFFICIENT_FUNDS', () => {
    const { add, make, error } = setup();
    const cook = add(many('raw_trout', 1), by(AT.range));
    make(cook, 'trout');
    expect(error(cook)).toMatchObject({ code: 'LEVEL_TOO_LOW', message: 'Cooking level 15 required' });
    const smelt = add(many('copper_ore', 1), by(AT.furnace));
    make(smelt, 'bronze_bar');
    expect(error(smelt)).toMatchObject({ code: 'MISSING_ITEMS', message: /Tin ore/ });
    const smith = add(many('bronze_bar', 1), by(AT.anvil));
    make(smith, 'bronze_dagger');
    expect(error(smith)).toMatchObject({ code: 'MISSING_TOOL', message: /Hammer/ });
    const tan = add(many('cowhide', 1), { x: 100, z: 100 }, 1);
    make(tan, 'leather');
    expect(error(tan)?.code).toBe('INSUFFICIENT_FUNDS');
  });

  it('an inventory with no room for the output is INVENTORY_FULL', () => {
    const { add, make, error } = setup();
    const id = add([{ itemId: 'fishing_bait', quantity: 10 }, ...many('bones', 27)], { x: 100, z: 100 });
    make(id, 'uncut_gem');
    expect(error(id)?.code).toBe('INVENTORY_FULL');
  });
});

describe('processing: batches', () => {
  it('smelting at a furnace: one bar per recipe ticks, inputs consumed once each, xp, then done', () => {
    const { s, add, make, count, stop } = setup();
    const id = add([...many('copper_ore', 3), ...many('tin_ore', 3)], by(AT.furnace));
    make(id, 'bronze_bar', 2);
    const start = s.world.tick;
    expect(s.lastEvent(id, 'processingStart')?.data).toEqual({ recipeId: 'bronze_bar', quantity: 2 });
    s.step(3);
    expect(count(id, 'bronze_bar')).toBe(0);
    s.step();
    expect(count(id, 'bronze_bar')).toBe(1);
    s.step(4);
    expect(s.eventsOf(id, 'skillXp').map((e) => [e.tick - start, e.data.gained])).toEqual([
      [4, 6],
      [8, 6],
    ]);
    expect([count(id, 'bronze_bar'), count(id, 'copper_ore'), count(id, 'tin_ore')]).toEqual([2, 1, 1]);
    expect(stop(id)).toEqual({ recipeId: 'bronze_bar', made: 2, reason: 'done' });
  });

  it('a batch stops when inputs run out (missing_items) and when the inventory fills (inventory_full)', () => {
    const { s, add, make, stop, count } = setup();
    const a = add([...many('copper_ore', 2), ...many('tin_ore', 2)], by(AT.furnace));
    make(a, 'bronze_bar', 5);
    s.step(8);
    expect(stop(a)).toEqual({ recipeId: 'bronze_bar', made: 2, reason: 'missing_items' });
    const b = add([{ itemId: 'fishing_bait', quantity: 20 }, ...many('bones', 26)], { x: 100, z: 100 });
    make(b, 'uncut_gem', 3);
    s.step(4);
    expect(stop(b)).toEqual({ recipeId: 'uncut_gem', made: 1, reason: 'inventory_full' });
    expect([count(b, 'uncut_gem'), count(b, 'fishing_bait')]).toEqual([1, 15]);
  });

  it('moving stops a batch (moved), a hit or another action interrupts it; a batch stops gathering', () => {
    const { s, add, make, stop } = setup();
    const a = add([...many('copper_ore', 2), ...many('tin_ore', 2)], by(AT.furnace));
    make(a, 'bronze_bar', 2);
    s.push({ type: 'move', characterId: a, x: 90, z: 90, run: false });
    s.step();
    expect(stop(a)).toEqual({ recipeId: 'bronze_bar', made: 0, reason: 'moved' });
    const b = add([...many('copper_ore', 2), ...many('tin_ore', 2)], by(AT.furnace));
    make(b, 'bronze_bar', 2);
    s.push({ type: 'damage', characterId: b, amount: 1 });
    s.step();
    expect(stop(b)?.reason).toBe('interrupted');

    const c = add(
      [
        { itemId: 'small_net', quantity: 1 },
        { itemId: 'fishing_bait', quantity: 5 },
      ],
      {
        x: AT.net.x - 1,
        z: AT.net.z,
      },
    );
    const spot = [...s.world.get(RESOURCES).byEid.values()].find((r) => r.resourceId === 'spot_net');
    s.push({
      type: 'action',
      characterId: c,
      action: 'gather',
      targetId: s.world.wireIds[spot?.eid as number] as string,
    });
    s.step();
    make(c, 'uncut_gem');
    expect(s.lastEvent(c, 'gatheringStop')?.data.reason).toBe('interrupted');
    expect(s.lastEvent(c, 'processingStart')?.data.recipeId).toBe('uncut_gem');
  });

  it('the batch is in the world hash', () => {
    const { s, add, make } = setup();
    const id = add([...many('copper_ore', 2), ...many('tin_ore', 2)], by(AT.furnace));
    const before = worldHash(s.world);
    make(id, 'bronze_bar', 2);
    expect(worldHash(s.world)).not.toBe(before);
  });
});

describe('processing: every recipe kind', () => {
  const shrimp = SKILL_RECIPES.find((r) => r.id === 'shrimp') as RecipeInfo;

  it('burn chance falls with level and is 0 from stopBurnLevel, which differs for fire and range', () => {
    expect(burnChance(shrimp, 1, 'range')).toBeCloseTo(0.5);
    expect(burnChance(shrimp, 15, 'range')).toBeCloseTo((0.5 * 15) / 29);
    expect(burnChance(shrimp, 30, 'range')).toBe(0);
    expect(burnChance(shrimp, 30, 'fire')).toBeGreaterThan(0);
    expect(burnChance(shrimp, 34, 'fire')).toBe(0);
  });

  it('cooking on a range at level 1 burns some (no xp for those), at the stop-burn level none', () => {
    for (const level of [1, 30]) {
      const { s, add, make, count, setLevel, stop } = setup(5);
      const id = add(many('raw_shrimp', 28), by(AT.range));
      setLevel(id, 'cooking', level);
      make(id, 'shrimp', 28);
      s.step(28 * 4);
      expect(stop(id)).toEqual({ recipeId: 'shrimp', made: 28, reason: 'done' });
      const cooked = count(id, 'shrimp');
      const burnt = count(id, 'burnt_shrimp');
      expect(cooked + burnt).toBe(28);
      expect(count(id, 'raw_shrimp')).toBe(0);
      expect(s.eventsOf(id, 'skillXp')).toHaveLength(cooked);
      if (level === 1) {
        expect(burnt).toBeGreaterThan(3);
        expect(cooked).toBeGreaterThan(3);
      } else {
        expect(burnt).toBe(0);
      }
    }
  });

  it('firemaking (tinderbox on logs) lights a fire on the tile, the player steps aside, the fire cooks and burns out', () => {
    const { s, add, count } = setup();
    const id = add([{ itemId: 'tinderbox', quantity: 1 }, ...many('logs', 1), ...many('raw_shrimp', 1)], {
      x: 120,
      z: 120,
    });
    s.push({ type: 'inventoryUse', characterId: id, slot: 0, targetSlot: 1, origin: 'inventory:use' });
    s.step();
    expect(s.lastEvent(id, 'processingStart')?.data).toEqual({ recipeId: 'logs', quantity: 1 });
    s.step(4);
    const fires = [...s.world.get(STATIONS).byEid.values()].filter((st) => st.stationType === 'fire');
    expect(fires).toHaveLength(1);
    const fire = fires[0]?.eid as number;
    expect([s.world.c.Position.x[fire], s.world.c.Position.z[fire]]).toEqual([120, 120]);
    expect(s.position(id)).toEqual({ x: 119, z: 120 });
    expect(count(id, 'logs')).toBe(0);
    expect(s.lastEvent(id, 'skillXp')?.data).toMatchObject({ skill: 'firemaking', gained: 40 });
    const lit = s.world.tick;
    // Raw shrimp used on the fire cooks it.
    s.push({ type: 'inventoryUse', characterId: id, slot: 2, targetId: s.world.wireIds[fire] as string });
    s.step(5);
    expect(s.eventsFor(id, 'error')).toEqual([]);
    expect(count(id, 'shrimp') + count(id, 'burnt_shrimp')).toBe(1);
    s.step(lit + 30 - s.world.tick - 1);
    expect(s.world.get(STATIONS).byEid.has(fire)).toBe(true);
    s.step();
    expect(s.world.get(STATIONS).byEid.has(fire)).toBe(false);
    expect(s.world.despawned.map((d) => d.eid)).toContain(fire);
  });

  it('smithing (a bar used on the anvil) needs the hammer and makes the item', () => {
    const { s, add, count, station } = setup();
    const id = add([{ itemId: 'hammer', quantity: 1 }, ...many('bronze_bar', 1)], by(AT.anvil));
    s.push({ type: 'inventoryUse', characterId: id, slot: 1, targetId: station('anvil') });
    s.step(5);
    expect([count(id, 'bronze_dagger'), count(id, 'bronze_bar'), count(id, 'hammer')]).toEqual([1, 0, 1]);
  });

  it('crafting uses one thread per `uses` items; fletching (knife on logs) gives the output quantity', () => {
    const { s, add, make, count, stop } = setup();
    const a = add(
      [{ itemId: 'needle', quantity: 1 }, { itemId: 'thread', quantity: 2 }, ...many('leather', 3)],
      { x: 100, z: 100 },
    );
    make(a, 'leather_gloves', 3);
    s.step(3);
    expect(count(a, 'thread')).toBe(1);
    s.step(3);
    expect(count(a, 'thread')).toBe(1);
    s.step(3);
    expect([count(a, 'thread'), count(a, 'leather_gloves')]).toEqual([0, 3]);
    expect(stop(a)?.reason).toBe('done');

    const b = add([{ itemId: 'knife', quantity: 1 }, ...many('logs', 1)], { x: 102, z: 100 });
    s.push({ type: 'inventoryUse', characterId: b, slot: 0, targetSlot: 1 });
    s.step(4);
    expect(count(b, 'arrow_shaft')).toBe(15);
    expect(s.lastEvent(b, 'skillXp')?.data).toMatchObject({ skill: 'fletching', gained: 5 });
  });

  it('tanning costs coins per hide and stops when they run out', () => {
    const { s, add, make, count, stop } = setup();
    const id = add(many('cowhide', 3), { x: 100, z: 100 }, 5);
    make(id, 'leather', 3);
    s.step(3);
    expect([count(id, 'leather'), count(id, 'cowhide'), s.player(id).state.coins]).toEqual([2, 1, 1]);
    expect(stop(id)).toEqual({ recipeId: 'leather', made: 2, reason: 'missing_items' });
  });

  it('runecrafting at an altar: one essence per rune, more runes from the multi-rune levels', () => {
    const { s, add, make, count, setLevel, stop, station } = setup();
    const id = add(many('rune_essence', 3), by(AT.altar));
    setLevel(id, 'runecrafting', 11);
    make(id, 'air_rune', 28, station('altar'));
    s.step(3);
    expect([count(id, 'air_rune'), count(id, 'rune_essence')]).toEqual([6, 0]);
    expect(stop(id)).toEqual({ recipeId: 'air_rune', made: 3, reason: 'missing_items' });
  });

  it('player:action use on a station lists what it makes', () => {
    const { s, add, station } = setup();
    const id = add([], by(AT.furnace));
    s.push({ type: 'action', characterId: id, action: 'use', targetId: station('furnace') });
    s.step();
    expect(s.lastEvent(id, 'stationOpen')?.data).toEqual({
      targetId: station('furnace'),
      stationType: 'furnace',
      recipes: [{ recipeId: 'bronze_bar', kind: 'smelting', level: 1 }],
    });
  });

  it('player:action use on a station nothing is made at is refused (INVALID_TARGET), naming it', () => {
    const { s, add, error } = setup();
    const bank = placeStation(s.world, 'bank', AT.furnace.x - 2, AT.furnace.z, 0, 'Bank booth');
    const id = add([], { x: AT.furnace.x - 2, z: AT.furnace.z - 1 });
    s.push({
      type: 'action',
      characterId: id,
      action: 'use',
      targetId: s.world.wireIds[bank] as string,
      origin: 'player:action',
    });
    s.step();
    expect(error(id)).toEqual({
      code: 'INVALID_TARGET',
      message: 'There is nothing to make at the Bank booth.',
      event: 'player:action',
    });
    expect(s.eventsOf(id, 'stationOpen')).toEqual([]);
  });
});
