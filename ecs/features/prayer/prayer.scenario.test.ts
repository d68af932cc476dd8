import { describe, expect, it } from 'vitest';
import { Scenario } from '../../../tests/scenario/harness.ts';
import { populateWorld } from '../../core/populate.ts';
import { xpForLevel } from '../../core/skills.ts';
import { combatNumbers } from '../combat/attacker.ts';
import { combatContent } from '../combat/combat-scenario-helpers.ts';
import { STATIONS } from '../stations/index.ts';
import { FakePersistence } from '../trade/trade-scenario-helpers.ts';
import { PRAYERS } from './state.ts';

function setup(prayerLevel = 10) {
  const s = new Scenario({ content: combatContent() });
  populateWorld(s.world);
  const id = s.addPlayer({ name: 'Monk', x: 100, z: 100, inventory: [{ itemId: 'bones', quantity: 1 }] });
  const p = s.player(id);
  p.state.skills.prayer = { level: prayerLevel, xp: xpForLevel(prayerLevel) };
  // As if loaded at that level with no points saved: the points are read again, as the maximum.
  s.world.get(PRAYERS).delete(id);
  if (p.state.slices) delete p.state.slices.prayer;
  const toggle = (prayerId: string, active = true) => {
    s.push({ type: 'prayerToggle', characterId: id, prayerId, active });
    s.step();
    return s.lastEvent(id, 'prayerState')?.data;
  };
  return { s, id, p, toggle };
}

describe('prayer', () => {
  it('prayer:state on entering the world: points = max = prayer level', () => {
    const s = new Scenario({ content: combatContent() });
    const id = s.addPlayer({ name: 'New' });
    expect(s.lastEvent(id, 'prayerState')?.data).toEqual({ points: 1, maxPoints: 1, active: [] });
  });

  it('toggling on and off; conflicting prayers switch each other off; level checked', () => {
    const { s, id, toggle } = setup(5);
    expect(toggle('steady')?.active).toEqual(['steady']);
    expect(toggle('keen')?.active).toEqual(['steady', 'keen']);
    toggle('stone');
    expect(s.lastEvent(id, 'error')?.data).toMatchObject({
      code: 'LEVEL_TOO_LOW',
      message: 'Prayer level 10 required',
    });
    expect(toggle('keen', false)?.active).toEqual(['steady']);
    s.push({ type: 'prayerDeactivateAll', characterId: id });
    s.step();
    expect(s.lastEvent(id, 'prayerState')?.data.active).toEqual([]);
    toggle('nope');
    expect(s.lastEvent(id, 'error')?.data.code).toBe('NOT_FOUND');
  });

  it('a conflict listed on the new prayer switches the old one off (and the other way round)', () => {
    const { toggle } = setup(10);
    toggle('stone');
    expect(toggle('steady')?.active).toEqual(['steady']); // steady lists stone
    expect(toggle('stone')?.active).toEqual(['stone']);
  });

  it('drains one point each time the summed drain effects pass 60 + 2 × prayer bonus; at 0 all switch off', () => {
    const { s, id, toggle } = setup(10);
    toggle('steady'); // 3 per tick: a point every 21st tick after activation (counter > 60)
    const start = s.world.tick;
    let ticks = 0;
    while ((s.lastEvent(id, 'prayerState')?.data.points ?? 10) === 10 && ticks++ < 100) s.step();
    expect(s.world.tick - start).toBe(20);
    // With 15 prayer bonus the resistance is 90: 3 × 31 = 93 > 90.
    const w = setup(10);
    w.p.state.equipment = { amulet: { itemId: 'holy_amulet', quantity: 1 } };
    w.toggle('steady');
    const t0 = w.s.world.tick;
    ticks = 0;
    while ((w.s.lastEvent(w.id, 'prayerState')?.data.points ?? 10) === 10 && ticks++ < 100) w.s.step();
    expect(w.s.world.tick - t0).toBe(30);
    // Run dry: everything switches off and nothing can be switched on.
    w.s.step(400);
    expect(w.s.lastEvent(w.id, 'prayerState')?.data).toEqual({ points: 0, maxPoints: 10, active: [] });
    w.toggle('keen');
    expect(w.s.lastEvent(w.id, 'error')?.data.code).toBe('REQUIREMENT_NOT_MET');
    expect(w.p.state.slices?.prayer).toEqual({ points: 0 });
  });

  it('praying at an altar restores all points; anything else is INVALID_TARGET', () => {
    const { s, id } = setup(10);
    const prayer = s.world.get(PRAYERS).get(id);
    if (prayer) prayer.points = 1;
    const altar = [...s.world.get(STATIONS).byEid.values()].find((st) => st.stationType === 'altar');
    const bank = [...s.world.get(STATIONS).byEid.values()].find((st) => st.stationType === 'bank');
    s.push({
      type: 'action',
      characterId: id,
      action: 'pray',
      targetId: s.world.wireIds[bank?.eid ?? 0] ?? '',
    });
    s.step(4);
    expect(s.lastEvent(id, 'error')?.data.code).toBe('INVALID_TARGET');
    s.push({
      type: 'action',
      characterId: id,
      action: 'pray',
      targetId: s.world.wireIds[altar?.eid ?? 0] ?? '',
    });
    s.step(4);
    expect(s.lastEvent(id, 'prayerState')?.data.points).toBe(10);
  });

  it('the points a player has are what its snapshot saves, spent or not: a level-up refills nothing at the next login', () => {
    const s = new Scenario({ content: combatContent() });
    const db = new FakePersistence(s);
    const id = s.addPlayer({ name: 'Novice' });
    // Prayer level 1: 1 point, never spent. Raised to level 10: 1 of 10, as in the client.
    s.push({ type: 'setAdmin', characterId: id });
    s.push({ type: 'chatCommand', characterId: id, name: 'level', args: ['prayer', '10'] });
    s.step();
    expect(s.lastEvent(id, 'prayerState')?.data).toMatchObject({ points: 1, maxPoints: 10 });
    s.push({ type: 'leave', characterId: id, reason: 'logout' });
    s.step();
    const saved = db.left.find((c) => c.id === id);
    expect(saved?.slices?.prayer).toEqual({ points: 1 });
    // Back in a world from what was saved: still 1 of 10.
    const again = new Scenario({ content: combatContent() });
    if (!saved) throw new Error('no snapshot');
    again.push({ type: 'join', characterId: saved.id, accountId: saved.accountId, state: saved });
    again.step();
    expect(again.lastEvent(id, 'prayerState')?.data).toMatchObject({ points: 1, maxPoints: 10 });
  });

  it('burying bones consumes them and grants the manifest prayer xp', () => {
    const { s, id, p } = setup(1);
    s.push({ type: 'inventoryUse', characterId: id, slot: 0 });
    s.step();
    expect(p.state.inventory[0]).toBeNull();
    expect(s.lastEvent(id, 'skillXp')?.data).toMatchObject({ skill: 'prayer', gained: 5 });
  });

  it('active prayers raise the combat numbers', () => {
    const { s, id, p, toggle } = setup(10);
    const before = combatNumbers(s.world, p.eid);
    toggle('keen');
    toggle('mighty');
    toggle('stone');
    const after = combatNumbers(s.world, p.eid);
    // level 1: floor(1 × 1.5) = 1, floor(1 × 2) = 2, floor(1 × 1.1) = 1
    expect(after.attackRoll).toBe(before.attackRoll);
    p.state.skills.attack = { level: 10, xp: xpForLevel(10) };
    p.state.skills.strength = { level: 40, xp: xpForLevel(40) };
    expect(combatNumbers(s.world, p.eid).attackRoll).toBe((15 + 3 + 8) * 64);
    // strength: floor(40 × 2) + 0 + 8 = 88; floor(0.5 + 88 × 64 / 640) = 9
    expect(combatNumbers(s.world, p.eid).maxHit).toBe(9);
    void id;
  });
});
