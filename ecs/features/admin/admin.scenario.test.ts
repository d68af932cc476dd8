import { describe, expect, it } from 'vitest';
import { Scenario } from '../../../tests/scenario/harness.ts';
import { NPCS } from '../npcs/index.ts';

function admin(isAdmin = true) {
  const s = new Scenario();
  const id = s.addPlayer({ name: 'Root', x: 20, z: 20, coins: 10 });
  if (isAdmin) {
    s.push({ type: 'setAdmin', characterId: id });
    s.step();
  }
  const run = (name: string, ...args: string[]) => {
    s.push({ type: 'chatCommand', characterId: id, name, args });
    s.step();
    return s.lastEvent(id, 'chat')?.data;
  };
  return { s, id, run, p: () => s.player(id) };
}

describe('admin commands', () => {
  it('anyone else gets FORBIDDEN and a system reply; nothing changes', () => {
    const { s, id, run, p } = admin(false);
    const reply = run('coins', '500');
    expect(s.lastEvent(id, 'error')?.data.code).toBe('FORBIDDEN');
    expect(reply).toMatchObject({ fromId: 'system', fromName: 'Server', channel: 'system' });
    expect(p().state.coins).toBe(10);
  });

  it('an unknown command is answered with a system message', () => {
    const { run } = admin();
    expect(run('fly')?.message).toMatch(/Unknown command/);
  });

  it('/give adds to the inventory (coins to the pouch); INVENTORY_FULL when it does not fit', () => {
    const { s, id, run, p } = admin();
    expect(run('give', 'logs', '2')?.channel).toBe('system');
    run('give', 'feather', '40');
    run('give', 'coins', '5');
    expect(p().state.inventory.slice(0, 3)).toEqual([
      { itemId: 'logs', quantity: 1 },
      { itemId: 'logs', quantity: 1 },
      { itemId: 'feather', quantity: 40 },
    ]);
    expect(p().state.coins).toBe(15);
    expect(s.world.persist.itemsChanged.has(id)).toBe(true);
    expect(run('give', 'logs', '26')?.message).toMatch(/No room/);
    expect(s.lastEvent(id, 'error')?.data.code).toBe('INVENTORY_FULL');
    expect(run('give', 'dragon_claws')?.message).toMatch(/Unknown item/);
  });

  it('/coins adds, and a negative amount removes but never below 0', () => {
    const { run, p } = admin();
    run('coins', '90');
    expect(p().state.coins).toBe(100);
    run('coins', '-150');
    expect(p().state.coins).toBe(0);
  });

  it('/tp moves to a walkable tile only', () => {
    const s = new Scenario();
    s.world.content.map.setBlocked(60, 60);
    const id = s.addPlayer({ name: 'Jumper', x: 20, z: 20 });
    s.player(id).admin = true;
    s.push({ type: 'chatCommand', characterId: id, name: 'tp', args: ['60', '60'] });
    s.step();
    expect(s.position(id)).toEqual({ x: 20, z: 20 });
    expect(s.lastEvent(id, 'chat')?.data.message).toMatch(/not walkable/);
    s.push({ type: 'chatCommand', characterId: id, name: 'tp', args: ['61', '60'] });
    s.step();
    expect(s.position(id)).toEqual({ x: 61, z: 60 });
  });

  it('/spawn puts an NPC on the admin tile with wire id npc-<n>', () => {
    const { s, run } = admin();
    expect(run('spawn', 'goblin')?.message).toMatch(/npc-1/);
    const eid = s.world.eidByWireId.get('npc-1') as number;
    expect(s.world.get(NPCS).byEid.get(eid)).toMatchObject({ npcId: 'goblin', level: 2 });
    expect([s.world.c.Position.x[eid], s.world.c.Position.z[eid]]).toEqual([20, 20]);
    expect(s.world.c.Health.current[eid]).toBe(5);
    expect(run('spawn', 'dragon')?.message).toMatch(/Unknown NPC/);
  });

  it('/xp adds xp, recomputes the level and sends skill:xp', () => {
    const { s, id, run, p } = admin();
    run('xp', 'defence', '1200');
    expect(s.lastEvent(id, 'skillXp')?.data).toEqual({ skill: 'defense', xp: 1200, gained: 1200, level: 10 });
    expect(p().state.skills.defense).toEqual({ level: 10, xp: 1200 });
    expect(run('xp', 'cooking', 'lots')?.message).toMatch(/Usage/);
  });
});
