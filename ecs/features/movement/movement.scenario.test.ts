import { describe, expect, it } from 'vitest';
import { testContent } from '../../../tests/helpers/sim-content.ts';
import { Scenario } from '../../../tests/scenario/harness.ts';
import { MoveMode } from '../../core/components.ts';
import { MOVE } from './state.ts';

const chebyshev = (a: { x: number; z: number }, b: { x: number; z: number }) =>
  Math.max(Math.abs(a.x - b.x), Math.abs(a.z - b.z));

describe('movement (contract §2.1)', () => {
  it('walks 2 tiles a tick and runs 4', () => {
    const s = new Scenario();
    const walker = s.addPlayer({ name: 'Walker', x: 50, z: 50 });
    const runner = s.addPlayer({ name: 'Runner', x: 50, z: 60 });
    s.push({ type: 'move', characterId: walker, x: 70, z: 50, run: false });
    s.push({ type: 'move', characterId: runner, x: 70, z: 60, run: true });
    s.step();
    expect(s.position(walker)).toEqual({ x: 52, z: 50 });
    expect(s.position(runner)).toEqual({ x: 54, z: 60 });
    s.step(2);
    expect(s.position(walker)).toEqual({ x: 56, z: 50 });
    expect(s.position(runner)).toEqual({ x: 62, z: 60 });
    s.step(2);
    expect(s.position(runner)).toEqual({ x: 70, z: 60 });
    expect(s.world.c.Movement.mode[s.player(runner).eid]).toBe(MoveMode.idle);
    expect(s.world.persist.dirty.has(walker)).toBe(true);
  });

  it('walks around a wall, never onto a blocked tile, at most 2 tiles a tick', () => {
    const blocked: [number, number][] = [];
    for (let z = 80; z <= 120; z++) blocked.push([105, z]);
    const s = new Scenario({ content: testContent({ blocked }) });
    const id = s.addPlayer({ name: 'Climber', x: 100, z: 100 });
    s.push({ type: 'move', characterId: id, x: 110, z: 100, run: false });
    let prev = s.position(id);
    for (let t = 0; t < 60; t++) {
      s.step();
      const now = s.position(id);
      expect(s.world.content.map.isWalkable(now.x, now.z)).toBe(true);
      expect(chebyshev(prev, now)).toBeLessThanOrEqual(2);
      prev = now;
    }
    expect(s.position(id)).toEqual({ x: 110, z: 100 });
    expect(s.eventsOf(id, 'error')).toEqual([]);
  });

  it('refuses a target more than 200 tiles away with TOO_FAR before anything else, and stays put', () => {
    const s = new Scenario({ content: testContent({ size: 600 }) });
    const id = s.addPlayer({ name: 'Far', x: 300, z: 300 });
    s.push({ type: 'move', characterId: id, x: 501, z: 300, run: false, origin: 'player:move' });
    // Out of bounds and too far: the distance rule wins.
    s.push({ type: 'move', characterId: id, x: -1000, z: 300, run: false });
    s.step(2);
    expect(s.eventsOf(id, 'error').map((e) => e.data.code)).toEqual(['TOO_FAR', 'TOO_FAR']);
    expect(s.eventsOf(id, 'error')[0]?.data.event).toBe('player:move');
    expect(s.position(id)).toEqual({ x: 300, z: 300 });
    s.push({ type: 'move', characterId: id, x: 500, z: 100, run: true });
    s.step();
    expect(s.eventsOf(id, 'error')).toHaveLength(2);
    expect(s.position(id)).toEqual({ x: 304, z: 296 });
  });

  it('a TOO_FAR move leaves the current path alone', () => {
    const s = new Scenario({ content: testContent({ size: 600 }) });
    const id = s.addPlayer({ name: 'Keep', x: 300, z: 300 });
    s.push({ type: 'move', characterId: id, x: 320, z: 300, run: false });
    s.step();
    s.push({ type: 'move', characterId: id, x: 0, z: 0, run: false });
    s.step();
    expect(s.position(id)).toEqual({ x: 304, z: 300 });
  });

  it('cancel stops at once; a new move replaces the path', () => {
    const s = new Scenario();
    const id = s.addPlayer({ name: 'Stop', x: 50, z: 50 });
    s.push({ type: 'move', characterId: id, x: 80, z: 50, run: false });
    s.step(2);
    expect(s.position(id)).toEqual({ x: 54, z: 50 });
    s.push({ type: 'moveCancel', characterId: id });
    s.step(3);
    expect(s.position(id)).toEqual({ x: 54, z: 50 });
    expect(s.world.c.Movement.mode[s.player(id).eid]).toBe(MoveMode.idle);
    s.push({ type: 'move', characterId: id, x: 80, z: 50, run: false });
    s.step();
    s.push({ type: 'move', characterId: id, x: 56, z: 40, run: false });
    s.step(10);
    expect(s.position(id)).toEqual({ x: 56, z: 40 });
  });

  it('an unreachable, blocked or out-of-bounds target gets INVALID_TARGET in the tick it is resolved', () => {
    const blocked: [number, number][] = [];
    // A closed ring around (150, 150).
    for (let i = 145; i <= 155; i++) blocked.push([i, 145], [i, 155], [145, i], [155, i]);
    const s = new Scenario({ content: testContent({ blocked }) });
    const id = s.addPlayer({ name: 'Lost', x: 120, z: 120 });
    const tick = s.world.tick;
    s.push({ type: 'move', characterId: id, x: 150, z: 150, run: false, origin: 'player:move' });
    s.step();
    s.push({ type: 'move', characterId: id, x: 145, z: 150, run: false });
    s.step();
    s.push({ type: 'move', characterId: id, x: 120, z: -5, run: false });
    s.step();
    const errors = s.eventsOf(id, 'error');
    expect(errors.map((e) => [e.data.code, e.tick])).toEqual([
      ['INVALID_TARGET', tick + 1],
      ['INVALID_TARGET', tick + 2],
      ['INVALID_TARGET', tick + 3],
    ]);
    expect(errors[0]?.data.event).toBe('player:move');
    expect(s.position(id)).toEqual({ x: 120, z: 120 });
  });

  it('requests over the pathfinding budget wait for a later tick instead of stalling one', () => {
    const blocked: [number, number][] = [];
    for (let z = 10; z <= 190; z++) blocked.push([100, z]);
    const s = new Scenario({ content: testContent({ blocked }), pathBudget: 300 });
    const ids = [0, 1, 2, 3].map((i) => s.addPlayer({ name: `P${i}`, x: 90, z: 100 + i }));
    for (const id of ids) s.push({ type: 'move', characterId: id, x: 110, z: 100, run: false });
    const expanded: number[] = [];
    const startTick = new Map<string, number>();
    for (let t = 0; t < 400 && startTick.size < ids.length; t++) {
      s.step();
      expanded.push(s.world.get(MOVE).lastExpanded);
      for (const id of ids) {
        if (!startTick.has(id) && s.position(id).x !== 90) startTick.set(id, s.world.tick);
      }
    }
    const started = [...startTick.values()];
    expect(started).toHaveLength(4);
    // Each search needs more than one tick's budget: the four start on different, later ticks.
    expect(new Set(started).size).toBe(4);
    expect(Math.max(...expanded)).toBeLessThanOrEqual(300);
    expect(s.eventsFor(ids[0] as string, 'error')).toEqual([]);
  });
});
