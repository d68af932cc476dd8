import { describe, expect, it } from 'vitest';
import { Scenario } from './harness.ts';

describe('players entering and leaving the world', () => {
  it('a joined player is an entity at its saved tile with its character id as wire id', () => {
    const s = new Scenario();
    const id = s.addPlayer({ name: 'Alice', x: 10, z: 12 });
    const p = s.player(id);
    expect(s.world.wireIds[p.eid]).toBe(id);
    expect(s.position(id)).toEqual({ x: 10, z: 12 });
    expect(p.syncDirty).toBe(true);
    expect(s.world.spawned).toContain(p.eid);
  });

  it('a saved position off the walkable map puts the player at the spawn', () => {
    const s = new Scenario();
    const id = s.addPlayer({ name: 'Lost', x: -50, z: 9999 });
    expect(s.position(id)).toEqual(s.world.content.spawn);
  });

  it('leaving removes the entity, hands a final snapshot to persistence, and drops later commands', () => {
    const s = new Scenario();
    const id = s.addPlayer({ name: 'Bob', x: 20, z: 20, coins: 50 });
    const eid = s.player(id).eid;
    s.push({ type: 'leave', characterId: id, reason: 'disconnect' });
    s.push({ type: 'moveCancel', characterId: id });
    s.step();
    expect(s.world.players.has(id)).toBe(false);
    expect(s.world.despawned).toEqual([{ eid, wireId: id }]);
    expect(s.world.persist.left.map((c) => [c.id, c.coins, c.position.x])).toEqual([[id, 50, 20]]);
    // Nothing answers the dropped command (entering sent prayer points and friend lists, a tick earlier).
    expect(s.eventsFor(id).filter((e) => e.tick === s.world.tick)).toEqual([]);
  });

  it('a second join of a character already in the world is refused: never twice', () => {
    const s = new Scenario();
    const id = s.addPlayer({ name: 'Twin' });
    const state = structuredClone(s.player(id).state);
    s.push({ type: 'join', characterId: id, accountId: 'x', state });
    s.step();
    expect([...s.world.players.keys()].filter((k) => k === id)).toHaveLength(1);
    expect(s.lastEvent(id, 'error')?.data.code).toBe('BUSY');
  });
});
