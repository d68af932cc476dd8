import { describe, expect, it } from 'vitest';
import { AT, skillsContent } from '../../../tests/helpers/skills-content.ts';
import { Scenario } from '../../../tests/scenario/harness.ts';
import type { SimContent } from '../../core/content.ts';
import { populateWorld } from '../../core/populate.ts';
import { combatContent } from '../combat/combat-scenario-helpers.ts';
import { targetIdOf } from '../combat/index.ts';
import { RESOURCES } from '../resources/index.ts';
import { STATIONS } from '../stations/index.ts';
import { tradeIdOf } from '../trade/index.ts';
import { openTrade } from '../trade/trade-scenario-helpers.ts';

/**
 * A refused `player:move` changes nothing: too far, a blocked or off-map tile, or a walkable tile no path
 * leads to (a closed ring of walls) is answered in the tick of the command, and whatever the player was
 * doing goes on: a batch at a furnace, gathering, a fight, a home teleport cast, an open trade.
 */

/** A closed ring of walls around (150, 150): its inside is walkable and unreachable from outside. */
function walledIn(content: SimContent): SimContent {
  for (let i = 145; i <= 155; i++) {
    content.map.setBlocked(i, 145);
    content.map.setBlocked(i, 155);
    content.map.setBlocked(145, i);
    content.map.setBlocked(155, i);
  }
  return content;
}

function world(content: SimContent): Scenario {
  const s = new Scenario({ content: walledIn(content) });
  populateWorld(s.world);
  return s;
}

/** Three refused moves in one tick each; returns the ticks they were sent in. */
function refusedMoves(s: Scenario, id: string): number[] {
  const targets: (() => [number, number])[] = [
    () => [150, 150], // walkable, inside the ring
    () => [145, 150], // the wall itself
    () => [s.position(id).x + 201, s.position(id).z], // too far
  ];
  const ticks: number[] = [];
  for (const target of targets) {
    const [x, z] = target();
    s.push({ type: 'move', characterId: id, x, z, run: false, origin: 'player:move' });
    s.step();
    ticks.push(s.world.tick);
  }
  return ticks;
}

function expectRefused(s: Scenario, id: string, ticks: number[]): void {
  const errors = s.eventsOf(id, 'error').filter((e) => e.data.event === 'player:move');
  expect(errors.map((e) => [e.data.code, e.tick])).toEqual([
    ['INVALID_TARGET', ticks[0]],
    ['INVALID_TARGET', ticks[1]],
    ['TOO_FAR', ticks[2]],
  ]);
}

const one = (itemId: string) => ({ itemId, quantity: 1 });

describe('a refused player:move changes nothing', () => {
  it('a batch at the furnace goes on to the end', () => {
    const s = world(skillsContent());
    const id = s.addPlayer({
      name: 'Smith',
      x: AT.furnace.x,
      z: AT.furnace.z - 1,
      inventory: [...Array(4)].flatMap(() => [one('copper_ore'), one('tin_ore')]),
    });
    const furnace = [...s.world.get(STATIONS).byEid.values()].find((st) => st.stationType === 'furnace');
    const targetId = s.world.wireIds[furnace?.eid ?? -1] as string;
    s.push({ type: 'skillMake', characterId: id, recipeId: 'bronze_bar', quantity: 4, targetId });
    s.step();
    expect(s.eventsOf(id, 'processingStart')).toHaveLength(1);
    const ticks = refusedMoves(s, id);
    expectRefused(s, id, ticks);
    s.step(20);
    expect(s.eventsOf(id, 'processingStop').map((e) => e.data)).toEqual([
      { recipeId: 'bronze_bar', made: 4, reason: 'done' },
    ]);
  });

  it('gathering goes on', () => {
    const s = world(skillsContent());
    const id = s.addPlayer({
      name: 'Logger',
      x: AT.tree.x - 1,
      z: AT.tree.z,
      inventory: [one('bronze_hatchet')],
    });
    const tree = [...s.world.get(RESOURCES).byEid.values()].find((r) => r.resourceId === 'tree_normal');
    s.push({
      type: 'action',
      characterId: id,
      action: 'gather',
      targetId: s.world.wireIds[tree?.eid ?? -1] as string,
    });
    s.step();
    expect(s.eventsOf(id, 'gatheringStart')).toHaveLength(1);
    const ticks = refusedMoves(s, id);
    expectRefused(s, id, ticks);
    expect(s.eventsOf(id, 'gatheringStop')).toEqual([]);
  });

  it('a fight goes on', () => {
    const s = world(combatContent([{ npcId: 'dummy', x: 101, z: 100, count: 1, radius: 0 }]));
    const id = s.addPlayer({ name: 'Fighter', x: 100, z: 100 });
    const dummy = [...s.world.eidByWireId].find(([w]) => w.startsWith('npc-')) as [string, number];
    s.push({ type: 'action', characterId: id, action: 'attack', targetId: dummy[0] });
    s.step();
    expect(targetIdOf(s.world, s.player(id).eid)).toBe(dummy[0]);
    const ticks = refusedMoves(s, id);
    expectRefused(s, id, ticks);
    expect(targetIdOf(s.world, s.player(id).eid)).toBe(dummy[0]);
    const hits = s.eventsOf(id, 'combatHit').filter((e) => e.data.attackerId === id).length;
    s.step(8);
    expect(s.eventsOf(id, 'combatHit').filter((e) => e.data.attackerId === id).length).toBeGreaterThan(hits);
  });

  it('a home teleport cast lands', () => {
    const s = world(combatContent());
    const spawn = s.world.content.spawn;
    const id = s.addPlayer({ name: 'Homer', x: spawn.x + 6, z: spawn.z + 4 });
    s.push({ type: 'homeTeleport', characterId: id });
    s.step();
    const ticks = refusedMoves(s, id);
    expectRefused(s, id, ticks);
    s.step(10);
    expect(s.eventsOf(id, 'teleportInterrupted')).toEqual([]);
    expect(s.eventsOf(id, 'teleportDone')).toHaveLength(1);
    expect(s.position(id)).toEqual({ x: spawn.x, z: spawn.z });
  });

  it('an open trade stays open', () => {
    const s = world(combatContent());
    const a = s.addPlayer({ name: 'Alice' });
    const spawn = s.world.content.spawn;
    const b = s.addPlayer({ name: 'Bob', x: spawn.x + 1, z: spawn.z });
    const tradeId = openTrade(s, a, b);
    const ticks = refusedMoves(s, a);
    expectRefused(s, a, ticks);
    expect(s.eventsOf(a, 'tradeCancelled')).toEqual([]);
    expect(tradeIdOf(s.world, a)).toBe(tradeId);
  });

  it('a walk under way carries on to its tile', () => {
    const s = world(combatContent());
    const id = s.addPlayer({ name: 'Walker', x: 100, z: 100 });
    s.push({ type: 'move', characterId: id, x: 120, z: 100, run: false });
    s.step();
    const ticks = refusedMoves(s, id);
    expectRefused(s, id, ticks);
    s.step(10);
    expect(s.position(id)).toEqual({ x: 120, z: 100 });
  });
});
