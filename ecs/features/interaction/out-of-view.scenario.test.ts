import { describe, expect, it } from 'vitest';
import { shopContent } from '../../../tests/helpers/shop-content.ts';
import { AT, skillsContent } from '../../../tests/helpers/skills-content.ts';
import { Scenario } from '../../../tests/scenario/harness.ts';
import type { PlayerAction } from '../../core/commands.ts';
import type { SimContent } from '../../core/content.ts';
import { populateWorld } from '../../core/populate.ts';
import { combatContent } from '../combat/combat-scenario-helpers.ts';
import { targetIdOf } from '../combat/index.ts';
import { GROUND_ITEMS } from '../ground-items/index.ts';
import { NPCS } from '../npcs/index.ts';
import { RESOURCES } from '../resources/index.ts';
import { STATIONS } from '../stations/index.ts';
import { PENDING_ACTIONS } from './state.ts';

/**
 * Targets out of view are NOT_FOUND for every verb: the same answer as for an id nothing has, in the tick
 * of the command, with nothing else happening (no walk toward it, no action interrupted). The view is the
 * view distance (24 tiles by default) and, for ground items, the owner-only rule. A target that leaves
 * view ends an approach and a chase.
 */

const NOT_FOUND = {
  code: 'NOT_FOUND',
  message: 'there is nothing like that in view',
  event: 'player:action',
};

function world(content: SimContent): Scenario {
  const s = new Scenario({ content });
  populateWorld(s.world);
  return s;
}

const wireOf = (s: Scenario, eid: number | undefined) => s.world.wireIds[eid ?? -1] as string;
const npc = (s: Scenario, npcId: string) =>
  wireOf(s, [...s.world.get(NPCS).byEid.values()].find((n) => n.npcId === npcId)?.eid);
const station = (s: Scenario, type: string) =>
  wireOf(s, [...s.world.get(STATIONS).byEid.values()].find((st) => st.stationType === type)?.eid);
const resource = (s: Scenario, resourceId: string) =>
  wireOf(s, [...s.world.get(RESOURCES).byEid.values()].find((r) => r.resourceId === resourceId)?.eid);
const tileOf = (s: Scenario, wireId: string) => {
  const eid = s.world.eidByWireId.get(wireId) as number;
  return { x: s.world.c.Position.x[eid] as number, z: s.world.c.Position.z[eid] as number };
};

let made = 0;
/**
 * A new player `dx` tiles west of the target acts on it; after 4 ticks: its errors for the action and
 * whether it moved.
 */
function actFrom(s: Scenario, dx: number, verb: PlayerAction, targetId: string) {
  const at = tileOf(s, targetId);
  const from = { x: at.x - dx, z: at.z };
  const id = s.addPlayer({
    name: `Seeker${made++}`,
    ...from,
    inventory: [{ itemId: 'bronze_hatchet', quantity: 1 }],
  });
  s.push({ type: 'action', characterId: id, action: verb, targetId, origin: 'player:action' });
  s.step(4);
  const errors = s.eventsOf(id, 'error').map((e) => e.data);
  return { id, errors, moved: s.position(id).x !== from.x || s.position(id).z !== from.z };
}

/** Out of view (30 tiles): NOT_FOUND, exactly as an unknown id, and no step taken; in view (10): walks. */
function expectViewRule(s: Scenario, verb: PlayerAction, targetId: string): void {
  const far = actFrom(s, 30, verb, targetId);
  expect(far.errors, `${verb} out of view`).toEqual([NOT_FOUND]);
  expect(far.moved, `${verb} out of view`).toBe(false);
  const unknown = actFrom(s, 30, verb, `${targetId}-gone`);
  expect(unknown.errors).toEqual(far.errors);
  const near = actFrom(s, 10, verb, targetId);
  expect(
    near.errors.filter((e) => e.code === 'NOT_FOUND'),
    `${verb} in view`,
  ).toEqual([]);
  expect(near.moved, `${verb} in view`).toBe(true);
}

describe('targets out of view are NOT_FOUND for every verb', () => {
  it('NPCs: attack, talk, shop, bank', () => {
    const s = world(shopContent());
    expect(npc(s, 'shopkeeper')).toBeDefined();
    expectViewRule(s, 'attack', npc(s, 'banker'));
    expectViewRule(s, 'talk', npc(s, 'shopkeeper'));
    expectViewRule(s, 'shop', npc(s, 'shopkeeper'));
    expectViewRule(s, 'bank', npc(s, 'banker'));
  });

  it('resources and stations: gather, use, pray', () => {
    const s = world(skillsContent());
    expectViewRule(s, 'gather', resource(s, 'tree_normal'));
    expectViewRule(s, 'use', station(s, 'furnace'));
    expectViewRule(s, 'pray', station(s, 'altar'));
    expect(tileOf(s, resource(s, 'tree_normal'))).toEqual(AT.tree);
  });

  it('players: trade and attack (in a PvP field)', () => {
    const s = world(combatContent());
    const victim = s.addPlayer({ name: 'Victim', x: 175, z: 100 });
    expectViewRule(s, 'trade', victim);
    expectViewRule(s, 'attack', victim);
  });

  it('ground items: out of view, or in view but still private to another player', () => {
    const s = world(combatContent());
    const owner = s.addPlayer({ name: 'Owner', x: 60, z: 60, inventory: [{ itemId: 'logs', quantity: 1 }] });
    s.push({ type: 'inventoryDrop', characterId: owner, slot: 0 });
    s.step();
    const [item] = [...s.world.get(GROUND_ITEMS).byEid.values()];
    const itemId = wireOf(s, item?.eid);
    // Another player 10 tiles away: in range of view, but the item is the owner's alone for now.
    const other = actFrom(s, 10, 'pickup', itemId);
    expect(other.errors).toEqual([NOT_FOUND]);
    expect(other.moved).toBe(false);
    // Its owner, from out of view: NOT_FOUND; from in view it walks to it and picks it up.
    s.push({ type: 'move', characterId: owner, x: 95, z: 60, run: true });
    s.step(12);
    s.push({
      type: 'action',
      characterId: owner,
      action: 'pickup',
      targetId: itemId,
      origin: 'player:action',
    });
    s.step(3);
    expect(s.lastEvent(owner, 'error')?.data).toEqual(NOT_FOUND);
    expect(s.position(owner)).toEqual({ x: 95, z: 60 });
    s.push({ type: 'move', characterId: owner, x: 70, z: 60, run: true });
    s.step(10);
    s.push({
      type: 'action',
      characterId: owner,
      action: 'pickup',
      targetId: itemId,
      origin: 'player:action',
    });
    s.step(10);
    expect(s.player(owner).state.inventory[0]).toEqual({ itemId: 'logs', quantity: 1 });
  });

  it('a trade request (tradeRequest) to a player out of view is NOT_FOUND, before busy or too far', () => {
    const s = world(combatContent());
    const a = s.addPlayer({ name: 'Asker', x: 100, z: 100 });
    const b = s.addPlayer({ name: 'Far', x: 140, z: 100 });
    const c = s.addPlayer({ name: 'Near', x: 110, z: 100 });
    s.push({ type: 'tradeRequest', characterId: a, targetPlayerId: b });
    s.push({ type: 'tradeRequest', characterId: a, targetPlayerId: c });
    s.step();
    expect(s.eventsOf(a, 'tradeError').map((e) => e.data.code)).toEqual(['NOT_FOUND', 'TOO_FAR']);
    expect(s.eventsOf(b, 'tradeIncoming')).toEqual([]);
  });
});

describe('a target that leaves view is followed no further', () => {
  function teleport(s: Scenario, who: string, x: number, z: number): void {
    s.player(who).admin = true;
    s.push({ type: 'chatCommand', characterId: who, name: 'tp', args: [String(x), String(z)] });
    s.step();
  }

  it('an approach (trade) ends when its target leaves view', () => {
    const s = world(combatContent());
    const a = s.addPlayer({ name: 'Follower', x: 100, z: 100 });
    const b = s.addPlayer({ name: 'Runner', x: 112, z: 100 });
    s.push({ type: 'action', characterId: a, action: 'trade', targetId: b, origin: 'player:action' });
    s.step();
    const walk = s.world.get(PENDING_ACTIONS).get(a);
    const goal = { x: walk?.goalX, z: walk?.goalZ };
    expect(goal.x).toBe(110);
    teleport(s, b, 112, 170);
    expect(s.world.get(PENDING_ACTIONS).has(a)).toBe(false);
    s.step(40);
    // It walked to where it was going while it could see the target, and no further.
    expect(s.position(a)).toEqual(goal);
    expect(s.eventsOf(b, 'tradeIncoming')).toEqual([]);
  });

  it('a chase ends when the target leaves view', () => {
    const s = world(combatContent());
    const a = s.addPlayer({ name: 'Hunter', x: 160, z: 100 });
    const b = s.addPlayer({ name: 'Prey', x: 161, z: 100 });
    s.push({ type: 'action', characterId: a, action: 'attack', targetId: b, origin: 'player:action' });
    s.step();
    expect(targetIdOf(s.world, s.player(a).eid)).toBe(b);
    teleport(s, b, 161, 20);
    expect(targetIdOf(s.world, s.player(a).eid)).toBeNull();
    s.step(40);
    expect(s.position(a)).toEqual({ x: 160, z: 100 });
  });
});
