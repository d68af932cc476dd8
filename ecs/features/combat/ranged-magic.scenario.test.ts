import { describe, expect, it } from 'vitest';
import { Scenario } from '../../../tests/scenario/harness.ts';
import { populateWorld } from '../../core/populate.ts';
import { xpForLevel } from '../../core/skills.ts';
import { GROUND_ITEMS } from '../ground-items/index.ts';
import { openTrade } from '../trade/trade-scenario-helpers.ts';
import { combatNumbers } from './attacker.ts';
import { combatContent } from './combat-scenario-helpers.ts';
import { COMBAT } from './state.ts';

function world() {
  const s = new Scenario({
    content: combatContent([{ npcId: 'dummy', x: 106, z: 100, count: 1, radius: 0 }]),
  });
  populateWorld(s.world);
  return s;
}

describe('ranged', () => {
  function archer(arrows: number) {
    const s = world();
    const id = s.addPlayer({ name: 'Archer', x: 100, z: 100 });
    const p = s.player(id);
    p.state.equipment = {
      weapon: { itemId: 'shortbow', quantity: 1 },
      ...(arrows > 0 ? { arrows: { itemId: 'bronze_arrow', quantity: arrows } } : {}),
    };
    s.push({ type: 'combatAutoRetaliate', characterId: id, enabled: false });
    return { s, id, p };
  }

  it('shoots from the bow range without walking, one arrow per shot, some land under the target', () => {
    const { s, id, p } = archer(100);
    s.push({ type: 'action', characterId: id, action: 'attack', targetId: 'npc-1' });
    s.step(90); // within the 60 s the pile is the archer's alone
    expect(s.position(id)).toEqual({ x: 100, z: 100 });
    const shots = s.eventsOf(id, 'combatHit').filter((e) => e.data.attackerId === id);
    expect(shots.length).toBeGreaterThan(15);
    for (const h of shots) expect(h.data.style).toBe('ranged');
    expect(p.state.equipment.arrows?.quantity).toBe(100 - shots.length);
    const pile = [...s.world.get(GROUND_ITEMS).byEid.values()].filter((g) => g.itemId === 'bronze_arrow');
    // One pile under the target, owned by the archer, with about a fifth of the arrows.
    expect(pile).toHaveLength(1);
    expect(pile[0]?.ownerId).toBe(id);
    expect([s.world.c.Position.x[pile[0]?.eid ?? 0], s.world.c.Position.z[pile[0]?.eid ?? 0]]).toEqual([
      106, 100,
    ]);
    expect(pile[0]?.quantity).toBeGreaterThan(0);
    expect(pile[0]?.quantity).toBeLessThan(shots.length / 2);
    const ranged = s.eventsOf(id, 'skillXp').filter((e) => e.data.skill === 'ranged');
    expect(ranged.reduce((n, e) => n + e.data.gained, 0)).toBe(
      4 * shots.reduce((n, e) => n + e.data.damage, 0),
    );
  });

  it('without arrows: MISSING_ITEMS, and the fight ends when the last arrow is gone', () => {
    const none = archer(0);
    none.s.push({ type: 'action', characterId: none.id, action: 'attack', targetId: 'npc-1' });
    none.s.step();
    expect(none.s.lastEvent(none.id, 'error')?.data.code).toBe('MISSING_ITEMS');
    const two = archer(2);
    two.s.push({ type: 'action', characterId: two.id, action: 'attack', targetId: 'npc-1' });
    two.s.step(12);
    expect(two.s.eventsOf(two.id, 'combatHit').filter((e) => e.data.attackerId === two.id)).toHaveLength(2);
    expect(two.p.state.equipment.arrows).toBeUndefined();
    expect(two.s.lastEvent(two.id, 'error')?.data.code).toBe('MISSING_ITEMS');
    expect(two.s.world.get(COMBAT).fights.has(two.p.eid)).toBe(false);
  });

  it('no shot while a trade holds the items (INTERFACE_BLOCKED); the arrows stay', () => {
    const { s, id, p } = archer(10);
    const friend = s.addPlayer({ name: 'Friend', x: 101, z: 100 });
    openTrade(s, id, friend);
    s.push({ type: 'action', characterId: id, action: 'attack', targetId: 'npc-1' });
    s.step(3);
    expect(s.lastEvent(id, 'error')?.data.code).toBe('INTERFACE_BLOCKED');
    expect(p.state.equipment.arrows?.quantity).toBe(10);
    expect(s.world.get(COMBAT).fights.has(p.eid)).toBe(false);
  });

  it('ranged numbers: ranged level, ranged bonuses, arrow strength; rapid is a tick faster, longrange reaches 2 farther', () => {
    const { s, id, p } = archer(10);
    // accurate: (1 + 3 + 8) × (8 + 64) = 864; max hit floor(0.5 + 12 × 71 / 640) = 1
    expect(combatNumbers(s.world, p.eid, 'ranged')).toMatchObject({ attackRoll: 864, maxHit: 1 });
    p.state.skills.ranged = { level: 50, xp: xpForLevel(50) };
    // (50 + 3 + 8) × 71 / 640 + 0.5 = 7.27
    expect(combatNumbers(s.world, p.eid, 'ranged').maxHit).toBe(7);
    s.push({ type: 'combatStyle', characterId: id, style: 'rapid' });
    s.push({ type: 'action', characterId: id, action: 'attack', targetId: 'npc-1' });
    s.step(13);
    const ticks = s
      .eventsOf(id, 'combatHit')
      .filter((e) => e.data.attackerId === id)
      .map((e) => e.tick);
    expect(ticks[1]! - ticks[0]!).toBe(3);
  });
});

describe('magic', () => {
  function mage(runes: number, magic = 1) {
    const s = world();
    const id = s.addPlayer({
      name: 'Mage',
      x: 100,
      z: 100,
      inventory: [
        { itemId: 'air_rune', quantity: runes },
        { itemId: 'mind_rune', quantity: runes },
      ].filter((r) => r.quantity > 0),
    });
    const p = s.player(id);
    p.state.skills.magic = { level: magic, xp: xpForLevel(magic) };
    s.push({ type: 'combatAutoRetaliate', characterId: id, enabled: false });
    return { s, id, p };
  }

  it('autocasts the chosen spell every 5 ticks from range, using its runes, magic xp per damage', () => {
    const { s, id, p } = mage(3);
    s.push({ type: 'combatSpell', characterId: id, spellId: 'wind_strike' });
    s.push({ type: 'action', characterId: id, action: 'attack', targetId: 'npc-1' });
    s.step(20);
    const casts = s.eventsOf(id, 'combatHit').filter((e) => e.data.attackerId === id);
    expect(casts).toHaveLength(3);
    expect(casts.map((c) => c.tick - (casts[0]?.tick ?? 0))).toEqual([0, 5, 10]);
    for (const c of casts) expect(c.data).toMatchObject({ style: 'magic' });
    expect(s.position(id)).toEqual({ x: 100, z: 100 });
    expect(p.state.inventory.filter(Boolean)).toEqual([]);
    expect(s.lastEvent(id, 'error')?.data).toMatchObject({
      code: 'MISSING_ITEMS',
      message: 'You do not have the runes for Wind Strike',
    });
    const magicXp = s.eventsOf(id, 'skillXp').filter((e) => e.data.skill === 'magic');
    expect(magicXp.reduce((n, e) => n + e.data.gained, 0)).toBe(
      4 * casts.reduce((n, c) => n + c.data.damage, 0),
    );
    expect(combatNumbers(s.world, p.eid, 'magic').maxHit).toBe(2);
  });

  it('the magic level is checked; an unknown spell is NOT_FOUND; null stops autocasting', () => {
    const { s, id } = mage(5);
    s.push({ type: 'combatSpell', characterId: id, spellId: 'fire_strike' });
    s.step();
    expect(s.lastEvent(id, 'error')?.data).toMatchObject({
      code: 'LEVEL_TOO_LOW',
      message: 'Magic level 13 required',
    });
    s.push({ type: 'combatSpell', characterId: id, spellId: 'nope' });
    s.step();
    expect(s.lastEvent(id, 'error')?.data.code).toBe('NOT_FOUND');
    s.push({ type: 'combatSpell', characterId: id, spellId: 'wind_strike' });
    s.push({ type: 'combatSpell', characterId: id, spellId: null });
    s.step();
    expect(s.world.get(COMBAT).spells.has(id)).toBe(false);
  });
});

describe('NPCs that shoot', () => {
  it('a ranged NPC attacks from its combatRange with its ranged level and arrow, without walking up', () => {
    const s = new Scenario({
      content: combatContent([{ npcId: 'archer', x: 100, z: 100, count: 1, radius: 0 }]),
    });
    populateWorld(s.world);
    const id = s.addPlayer({ name: 'Target', x: 105, z: 100 });
    s.push({ type: 'combatAutoRetaliate', characterId: id, enabled: false });
    s.step(12);
    const shots = s.eventsOf(id, 'combatHit').filter((e) => e.data.attackerId === 'npc-1');
    expect(shots.length).toBeGreaterThanOrEqual(2);
    for (const h of shots) expect(h.data.style).toBe('ranged');
    const eid = s.world.eidByWireId.get('npc-1') as number;
    expect([s.world.c.Position.x[eid], s.world.c.Position.z[eid]]).toEqual([100, 100]);
    // (30 + 9) × (7 + 64) / 640 + 0.5 = 4.83
    expect(combatNumbers(s.world, eid).maxHit).toBe(4);
  });
});
