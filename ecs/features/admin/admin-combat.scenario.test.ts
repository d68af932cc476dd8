import { describe, expect, it } from 'vitest';
import { Scenario } from '../../../tests/scenario/harness.ts';
import { populateWorld } from '../../core/populate.ts';
import { xpForLevel } from '../../core/skills.ts';
import { combatContent } from '../combat/combat-scenario-helpers.ts';
import { GROUND_ITEMS } from '../ground-items/index.ts';
import { PRAYERS } from '../prayer/state.ts';

/** The admin commands that set combat scenes: /heal, /kill, /level, /item. */
function admin() {
  const s = new Scenario({
    content: combatContent([
      { npcId: 'rat', x: 105, z: 100, count: 1, radius: 0 },
      { npcId: 'rat', x: 180, z: 180, count: 1, radius: 0 },
    ]),
  });
  populateWorld(s.world);
  const id = s.addPlayer({ name: 'Root', x: 100, z: 100 });
  s.push({ type: 'setAdmin', characterId: id });
  s.step();
  const run = (name: string, ...args: string[]) => {
    s.push({ type: 'chatCommand', characterId: id, name, args });
    s.step();
    return s.lastEvent(id, 'chat')?.data.message;
  };
  return { s, id, run, p: () => s.player(id) };
}

describe('admin combat commands', () => {
  it('/heal restores health and prayer points', () => {
    const { s, id, run, p } = admin();
    s.push({ type: 'damage', characterId: id, amount: 40 });
    s.step();
    p().state.skills.prayer = { level: 10, xp: xpForLevel(10) };
    const prayer = s.world.get(PRAYERS).get(id);
    if (prayer) prayer.points = 2;
    expect(run('heal')).toBe('Healed.');
    expect(s.world.c.Health.current[p().eid]).toBe(100);
    expect(s.lastEvent(id, 'prayerState')?.data).toMatchObject({ points: 10, maxPoints: 10 });
  });

  it('/kill kills an NPC in view by the admin hand (loot and kill count are the admin’s); refuses one out of view', () => {
    const { s, id, run, p } = admin();
    expect(run('kill', 'npc-2')).toMatch(/not in view/);
    expect(run('kill', 'npc-1')).toBe('Killed npc-1.');
    expect(s.lastEvent(id, 'entityDeath')?.data).toMatchObject({ id: 'npc-1', killerId: id });
    expect(s.world.eidByWireId.has('npc-1')).toBe(false);
    expect([...s.world.get(GROUND_ITEMS).byEid.values()].every((g) => g.ownerId === id)).toBe(true);
    expect(p().state.slices?.npcKills).toEqual({ rat: 1 });
    expect(run('kill', 'nobody')).toMatch(/No NPC/);
  });

  it('/level sets the xp to that level (up or down); /item is /give', () => {
    const { s, id, run, p } = admin();
    expect(run('level', 'attack', '40')).toBe('attack is now level 40.');
    expect(p().state.skills.attack).toEqual({ level: 40, xp: xpForLevel(40) });
    expect(s.lastEvent(id, 'skillXp')?.data).toMatchObject({
      skill: 'attack',
      level: 40,
      xp: xpForLevel(40),
    });
    run('level', 'prayer', '12');
    expect(s.lastEvent(id, 'prayerState')?.data.maxPoints).toBe(12);
    run('level', 'constitution', '20');
    expect(s.world.c.Health.max[p().eid]).toBe(200);
    expect(run('heal')).toBe('Healed.');
    // Lowered: the maximum follows and health above it falls to it.
    run('level', 'constitution', '10');
    expect(s.world.c.Health.max[p().eid]).toBe(100);
    expect(s.world.c.Health.current[p().eid]).toBe(100);
    expect(p().state.health).toBe(100);
    run('level', 'attack', '5');
    expect(p().state.skills.attack).toEqual({ level: 5, xp: xpForLevel(5) });
    expect(run('level', 'attack', '100')).toMatch(/Usage/);
    run('item', 'logs', '2');
    expect(p().state.inventory.filter(Boolean)).toEqual([
      { itemId: 'logs', quantity: 1 },
      { itemId: 'logs', quantity: 1 },
    ]);
  });
});
