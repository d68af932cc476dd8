import { describe, expect, it } from 'vitest';
import { testContent } from '../../../tests/helpers/sim-content.ts';
import { AT, skillsContent } from '../../../tests/helpers/skills-content.ts';
import { Scenario } from '../../../tests/scenario/harness.ts';
import { type AnyFeature, defineFeature } from '../../core/feature.ts';
import { populateWorld } from '../../core/populate.ts';
import { FEATURES } from '../../schedule.ts';
import { RESOURCES } from '../resources/index.ts';
import { STATIONS } from '../stations/index.ts';
import { AGENT_SEARCH_RADIUS, agentSurroundings, MAX_NEARBY_LOCATIONS } from './index.ts';

/**
 * The agent feature in the tick: what the world offers around a character (nearby places, goals and
 * why one is not available), a stop that ends path and action at once, and goal changes and messages
 * reaching the agent. Test content: spawn (100, 100), bank booth (97, 100), banker (103, 100), three
 * goblins around (120, 120).
 */

/** Stand-ins for the features answering `gather` and `attack`, whichever of them the server has. */
const standIns = defineFeature({
  name: 'standIns',
  actions: { gather: () => {}, attack: () => {} },
});

/** The features answering `verbs`, and every feature that uses one of them (FEATURES is in dependency order). */
function answering(verbs: string[]): AnyFeature[] {
  const out = new Set<AnyFeature>();
  for (const f of FEATURES) {
    const own = Object.keys(f.actions ?? {}).some((v) => verbs.includes(v));
    if (own || (f.uses ?? []).some((u: AnyFeature) => out.has(u))) out.add(f);
  }
  return [...out];
}

/**
 * A world without the features answering `gather` and `attack` (what a server without gathering or
 * combat offers), or with stand-ins answering them (`withVerbs`).
 */
function world(opts: { trees?: { x: number; z: number }[]; withVerbs?: boolean } = {}) {
  const content = {
    ...testContent(),
    resourceSpawns: (opts.trees ?? []).map((t) => ({ resourceId: 'normal_tree', kind: 'tree', ...t })),
  };
  const s = new Scenario({
    content,
    without: answering(['gather', 'attack']),
    ...(opts.withVerbs ? { features: [standIns] } : {}),
  });
  populateWorld(s.world);
  return s;
}

const goal = (s: Scenario, x: number, z: number, self: string | null, type: string) =>
  agentSurroundings(s.world, x, z, self).availableGoals.find((g) => g.type === type);

describe('agent surroundings', () => {
  it('lists banks, NPCs and resources nearest first (at most 20), without the character itself', () => {
    const trees = Array.from({ length: 30 }, (_, i) => ({
      x: 100 + (i % 10) + 5,
      z: 100 + Math.floor(i / 10) + 5,
    }));
    const s = world({ trees });
    const id = s.addPlayer({ name: 'Scout' });
    const { nearbyLocations } = agentSurroundings(s.world, 100, 100, id);
    expect(nearbyLocations).toHaveLength(MAX_NEARBY_LOCATIONS);
    const distances = nearbyLocations.map((l) => l.distance);
    expect(distances).toEqual([...distances].sort((a, b) => a - b));
    expect(nearbyLocations.slice(0, 2).map((l) => [l.type, l.name, l.distance])).toEqual(
      expect.arrayContaining([
        ['bank', 'Bank', 3],
        ['bank', 'Banker', 3],
      ]),
    );
    const tree = nearbyLocations.find((l) => l.type === 'resource');
    expect(tree?.name).toBe(s.world.content.gatheringNodes?.get('normal_tree')?.name ?? 'Normal tree');
    expect(nearbyLocations.some((l) => l.id === id)).toBe(false);
    for (const l of nearbyLocations)
      expect(Object.keys(l).sort()).toEqual(['distance', 'id', 'name', 'type', 'x', 'z']);
  });

  it('offers bank near a bank, not far from every bank; idle and explore always', () => {
    const s = world();
    expect(goal(s, 100, 100, null, 'bank')).toMatchObject({
      available: true,
      label: expect.stringMatching(/^Bank at /),
    });
    const far = 100 + AGENT_SEARCH_RADIUS + 10;
    expect(goal(s, far, far, null, 'bank')).toMatchObject({
      available: false,
      reason: expect.stringMatching(/no bank/),
    });
    expect(goal(s, far, far, null, 'idle')?.available).toBe(true);
    expect(goal(s, far, far, null, 'explore')?.available).toBe(true);
  });

  it('gather and combat follow the world: no verb yet -> unavailable with the reason; with the verb -> the nearest target', () => {
    const now = world({ trees: [{ x: 110, z: 100 }] });
    expect(goal(now, 100, 100, null, 'gather')).toMatchObject({
      available: false,
      reason: expect.stringMatching(/not part of this world/),
    });
    expect(goal(now, 100, 100, null, 'combat')).toMatchObject({
      available: false,
      reason: expect.stringMatching(/not part of this world/),
    });

    const later = world({ trees: [{ x: 110, z: 100 }], withVerbs: true });
    const tree = [...later.world.get(RESOURCES).byEid.values()][0];
    const treeId = later.world.wireIds[tree?.eid as number];
    expect(goal(later, 100, 100, null, 'gather')).toMatchObject({ available: true, target: treeId });
    expect(goal(later, 100, 100, null, 'combat')).toMatchObject({ available: true, label: 'Fight Goblin' });
    // A depleted node is no gathering target.
    (tree as { depletedUntilTick: number }).depletedUntilTick = later.world.tick + 100;
    expect(goal(later, 100, 100, null, 'gather')).toMatchObject({
      available: false,
      reason: expect.stringMatching(/no resource/),
    });
  });

  it('trade and follow need another player nearby', () => {
    const s = world();
    const a = s.addPlayer({ name: 'Alone' });
    expect(goal(s, 100, 100, a, 'follow')).toMatchObject({ available: false });
    expect(goal(s, 100, 100, a, 'trade')).toMatchObject({ available: false });
    const b = s.addPlayer({ name: 'Friend', x: 102, z: 101 });
    expect(goal(s, 100, 100, a, 'follow')).toMatchObject({
      available: true,
      target: b,
      label: 'Follow Friend',
    });
    expect(goal(s, 100, 100, a, 'trade')).toMatchObject({ available: true, target: b });
  });

  it('other players count only while the character sees them: never past its view, never for one out of the world', () => {
    const s = world();
    const a = s.addPlayer({ name: 'Looker' });
    const view = s.world.viewDistance;
    expect(view).toBeLessThan(AGENT_SEARCH_RADIUS);
    // Within the search radius, out of view: its id and name are not told.
    s.addPlayer({ name: 'Faraway', x: 100 + view + 2, z: 100 });
    for (const type of ['trade', 'follow']) {
      const g = goal(s, 100, 100, a, type);
      expect(g).toMatchObject({ available: false, reason: expect.stringMatching(/no other player/) });
      expect(g?.target).toBeUndefined();
      expect(JSON.stringify(agentSurroundings(s.world, 100, 100, a))).not.toContain('Faraway');
    }
    // At the edge of view it is seen.
    const near = s.addPlayer({ name: 'Edge', x: 100, z: 100 + view });
    expect(goal(s, 100, 100, a, 'trade')).toMatchObject({ available: true, target: near });
    // A character not in the world (an offline agent, read at its saved tile) sees nobody.
    expect(goal(s, 100, 100, null, 'follow')).toMatchObject({ available: false });
  });
});

describe('agent control in the tick', () => {
  it('a stop ends the walk and the pending action at once, and tells the agent its goals are paused', () => {
    const s = world();
    const id = s.addPlayer({ name: 'Walker' });
    const booth = [...s.world.get(STATIONS).byEid.values()].find((st) => st.stationType === 'bank');
    s.push({ type: 'move', characterId: id, x: 130, z: 100, run: false });
    s.step(3);
    const moving = s.position(id);
    expect(moving.x).toBeGreaterThan(100);
    s.push({ type: 'agentControl', characterId: id, goal: null, goalsPaused: true, stop: true });
    s.step();
    const stopped = s.position(id);
    s.step(5);
    expect(s.position(id)).toEqual(stopped);
    expect(s.lastEvent(id, 'agentGoal')?.data).toEqual({ goal: null, goalsPaused: true });

    // A walk-then-act action (bank far away) is forgotten by the stop: the bank never opens.
    s.push({
      type: 'action',
      characterId: id,
      action: 'bank',
      targetId: s.world.wireIds[booth?.eid as number] as string,
    });
    s.step();
    s.push({ type: 'agentControl', characterId: id, goal: null, goalsPaused: true, stop: true });
    s.step(60);
    expect(s.eventsOf(id, 'bankUpdate')).toEqual([]);
  });

  it('a goal change without stop only tells the agent; a message reaches it; nothing for a character not in the world', () => {
    const s = world();
    const id = s.addPlayer({ name: 'Agent' });
    s.push({ type: 'move', characterId: id, x: 110, z: 100, run: false });
    s.step();
    const g = { type: 'explore', label: 'Explore the area', startedAt: 5 };
    s.push({ type: 'agentControl', characterId: id, goal: g, goalsPaused: false, stop: false });
    s.push({
      type: 'agentMessage',
      characterId: id,
      from: { accountId: 'acc', name: 'Boss' },
      content: 'hi',
      timestamp: 7,
    });
    s.push({
      type: 'agentMessage',
      characterId: 'nobody',
      from: { accountId: 'acc', name: 'Boss' },
      content: 'x',
      timestamp: 7,
    });
    s.step(10);
    expect(s.position(id)).toEqual({ x: 110, z: 100 });
    expect(s.lastEvent(id, 'agentGoal')?.data).toEqual({ goal: g, goalsPaused: false });
    expect(s.eventsOf(id, 'agentMessage').map((e) => e.data)).toEqual([
      { from: { accountId: 'acc', name: 'Boss' }, content: 'hi', timestamp: 7 },
    ]);
    expect(s.eventsFor('nobody')).toEqual([]);
  });

  it('a stop ends gathering too (as any feature that ends its action when the player moves)', () => {
    const s = new Scenario({ content: skillsContent() });
    populateWorld(s.world);
    const id = s.addPlayer({
      name: 'Logger',
      x: AT.tree.x - 1,
      z: AT.tree.z,
      inventory: [{ itemId: 'bronze_hatchet', quantity: 1 }],
    });
    const tree = [...s.world.get(RESOURCES).byEid.values()].find((r) => r.resourceId === 'tree_normal');
    s.push({
      type: 'action',
      characterId: id,
      action: 'gather',
      targetId: s.world.wireIds[tree?.eid as number] as string,
    });
    s.step(2);
    expect(s.eventsOf(id, 'gatheringStart')).toHaveLength(1);
    s.push({ type: 'agentControl', characterId: id, goal: null, goalsPaused: true, stop: true });
    s.step();
    expect(s.lastEvent(id, 'gatheringStop')?.data.reason).toBe('moved');
    const xp = s.player(id).state.skills.woodcutting.xp;
    s.step(50);
    expect(s.player(id).state.skills.woodcutting.xp).toBe(xp);
  });
});
