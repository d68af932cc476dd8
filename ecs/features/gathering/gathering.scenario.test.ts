import { describe, expect, it } from 'vitest';
import { Replicator } from '../../../net/replication/replicator.ts';
import { deliverTick } from '../../../net/session/outbound.ts';
import { AT, skillsContent } from '../../../tests/helpers/skills-content.ts';
import { Scenario } from '../../../tests/scenario/harness.ts';
import type { ItemStack } from '../../core/character-state.ts';
import { defineFeature } from '../../core/feature.ts';
import { populateWorld } from '../../core/populate.ts';
import { levelForXp, type Skill, XP_FOR_LEVEL, xpForLevel } from '../../core/skills.ts';
import { worldHash } from '../../core/world-hash.ts';
import { RESOURCES } from '../resources/index.ts';
import { catchChance, successChance } from './gather.ts';

function setup(seed = 7) {
  const s = new Scenario({ content: skillsContent(), seed });
  populateWorld(s.world);
  const node = (resourceId: string) => {
    for (const r of s.world.get(RESOURCES).byEid.values()) {
      if (r.resourceId === resourceId) return s.world.wireIds[r.eid] as string;
    }
    throw new Error(resourceId);
  };
  const add = (inventory: ItemStack[], at: { x: number; z: number } = { x: 100, z: 100 }) =>
    s.addPlayer({ name: `P${s.world.players.size}`, ...at, inventory });
  const gather = (id: string, resourceId: string) => {
    s.push({
      type: 'action',
      characterId: id,
      action: 'gather',
      targetId: node(resourceId),
      origin: 'player:action',
    });
    s.step();
  };
  const setLevel = (id: string, skill: Skill, level: number) => {
    s.player(id).state.skills[skill] = { level, xp: xpForLevel(level) };
  };
  const count = (id: string, itemId: string) =>
    s.player(id).state.inventory.reduce((n, st) => n + (st?.itemId === itemId ? st.quantity : 0), 0);
  return { s, node, add, gather, setLevel, count };
}

const next = (at: { x: number; z: number }) => ({ x: at.x - 1, z: at.z });
const full = (n = 28): ItemStack[] => Array.from({ length: n }, () => ({ itemId: 'bones', quantity: 1 }));

describe('the experience table', () => {
  it('is the classic curve from level 1 to 99', () => {
    expect(XP_FOR_LEVEL.slice(1, 11)).toEqual([0, 83, 174, 276, 388, 512, 650, 801, 969, 1154]);
    expect([xpForLevel(50), xpForLevel(92), xpForLevel(99)]).toEqual([101_333, 6_517_253, 13_034_431]);
    expect([
      levelForXp(0),
      levelForXp(82),
      levelForXp(83),
      levelForXp(13_034_430),
      levelForXp(200_000_000),
    ]).toEqual([1, 1, 2, 98, 99]);
  });
});

describe('gathering: requirements', () => {
  it('a level below the node is LEVEL_TOO_LOW naming the requirement', () => {
    const { s, add, gather } = setup();
    const id = add([{ itemId: 'bronze_hatchet', quantity: 1 }], next(AT.oak));
    gather(id, 'tree_oak');
    expect(s.lastEvent(id, 'error')?.data).toEqual({
      code: 'LEVEL_TOO_LOW',
      message: 'Woodcutting level 15 required',
      event: 'player:action',
    });
    expect(s.eventsOf(id, 'gatheringStart')).toEqual([]);
  });

  it('no accepted tool is MISSING_TOOL; a wielded tool counts', () => {
    const { s, add, gather } = setup();
    const id = add([{ itemId: 'bronze_pickaxe', quantity: 1 }], next(AT.tree));
    gather(id, 'tree_normal');
    expect(s.lastEvent(id, 'error')?.data).toMatchObject({ code: 'MISSING_TOOL', message: /hatchet/ });
    s.player(id).state.equipment.weapon = { itemId: 'iron_hatchet', quantity: 1 };
    s.player(id).state.skills.woodcutting = { level: 5, xp: xpForLevel(5) };
    gather(id, 'tree_normal');
    expect(s.lastEvent(id, 'gatheringStart')?.data).toEqual({
      resourceId: 'tree_normal',
      skill: 'woodcutting',
    });
  });

  it('a tool of the class above the player level does not count (LEVEL_TOO_LOW naming it)', () => {
    const { s, add, gather } = setup();
    const id = add([{ itemId: 'iron_hatchet', quantity: 1 }], next(AT.tree));
    gather(id, 'tree_normal');
    expect(s.lastEvent(id, 'error')?.data).toMatchObject({
      code: 'LEVEL_TOO_LOW',
      message: 'Woodcutting level 5 required to use Iron hatchet',
    });
  });

  it('a full inventory is INVENTORY_FULL; a missing bait is MISSING_ITEMS; a non-resource is INVALID_TARGET', () => {
    const { s, add, gather } = setup();
    const inv = full(27);
    inv.unshift({ itemId: 'small_net', quantity: 1 });
    const a = add(inv, next(AT.net));
    gather(a, 'spot_net');
    expect(s.lastEvent(a, 'error')?.data.code).toBe('INVENTORY_FULL');
    const b = add([{ itemId: 'fishing_rod', quantity: 1 }], next(AT.bait));
    gather(b, 'spot_bait');
    expect(s.lastEvent(b, 'error')?.data).toMatchObject({ code: 'MISSING_ITEMS', message: /Fishing bait/ });
    s.push({ type: 'action', characterId: b, action: 'gather', targetId: b });
    s.step();
    expect(s.lastEvent(b, 'error')?.data.code).toBe('INVALID_TARGET');
    // No entity of that id: NOT_FOUND, as for any verb (the dispatch answers before the verb).
    s.push({ type: 'action', characterId: b, action: 'gather', targetId: 'res-999' });
    s.step();
    expect(s.lastEvent(b, 'error')?.data.code).toBe('NOT_FOUND');
  });
});

describe('gathering: cycles', () => {
  it('walks to a node out of reach first, then yields every baseCycleTicks with xp and the level', () => {
    const { s, add, gather, count } = setup();
    const id = add([{ itemId: 'small_net', quantity: 1 }], { x: 100, z: 100 });
    gather(id, 'spot_net');
    for (let i = 0; i < 10 && s.eventsOf(id, 'gatheringStart').length === 0; i++) s.step();
    const start = s.lastEvent(id, 'gatheringStart');
    expect(start?.data).toEqual({ resourceId: 'spot_net', skill: 'fishing' });
    const startTick = s.eventsOf(id, 'gatheringStart')[0]?.tick as number;
    const pos = s.position(id);
    expect(Math.max(Math.abs(pos.x - AT.net.x), Math.abs(pos.z - AT.net.z))).toBeLessThanOrEqual(1);
    s.step(15);
    const xp = s.eventsOf(id, 'skillXp');
    expect(xp.map((e) => e.tick)).toEqual([startTick + 5, startTick + 10, startTick + 15]);
    expect(xp.map((e) => e.data)).toEqual([
      { skill: 'fishing', xp: 10, gained: 10, level: 1 },
      { skill: 'fishing', xp: 20, gained: 10, level: 1 },
      { skill: 'fishing', xp: 30, gained: 10, level: 1 },
    ]);
    expect(count(id, 'raw_shrimp')).toBe(3);
    // The catch of this tick is an item change: committed with the tick's batch, synced to the player.
    expect(s.world.persist.itemsChanged.has(id)).toBe(true);
  });

  it('reports a level-up in skill:xp', () => {
    const { s, add, gather } = setup();
    const id = add([{ itemId: 'small_net', quantity: 1 }], next(AT.net));
    s.player(id).state.skills.fishing = { level: 1, xp: xpForLevel(2) - 5 };
    gather(id, 'spot_net');
    s.step(5);
    expect(s.lastEvent(id, 'skillXp')?.data).toEqual({
      skill: 'fishing',
      xp: xpForLevel(2) + 5,
      gained: 10,
      level: 2,
    });
    expect(s.player(id).state.skills.fishing.level).toBe(2);
  });

  it('the best owned tool sets the cycle: bronze pickaxe 6 ticks, iron 3 once the level allows it', () => {
    for (const [level, ticks] of [
      [1, 6],
      [5, 3],
    ] as const) {
      const { s, add, gather, setLevel } = setup();
      const id = add(
        [
          { itemId: 'bronze_pickaxe', quantity: 1 },
          { itemId: 'iron_pickaxe', quantity: 1 },
        ],
        next(AT.rock),
      );
      setLevel(id, 'mining', level);
      gather(id, 'rock_copper');
      const start = s.world.tick;
      // Rolls until the first ore; each roll falls on a multiple of the tool's cycle after the start.
      for (let i = 0; i < 200 && !s.lastEvent(id, 'gatheringStop'); i++) s.step();
      const got = s.eventsOf(id, 'skillXp')[0]?.tick as number;
      expect((got - start) % ticks).toBe(0);
      expect(s.lastEvent(id, 'gatheringStop')?.data.reason).toBe('depleted');
    }
  });

  it('same seed, same rolls: the tick of every log is fixed; yields with a chance come sometimes', () => {
    const run = () => {
      const { s, add, gather } = setup(99);
      const id = add([{ itemId: 'bronze_hatchet', quantity: 1 }], next(AT.tree));
      gather(id, 'tree_normal');
      s.step(120);
      return s.eventsOf(id, 'skillXp').map((e) => e.tick);
    };
    const a = run();
    expect(a).toEqual(run());
    // 35 % a roll at the node's level with the worst tool: about 30 rolls, about 10 logs.
    expect(a.length).toBeGreaterThan(3);
    expect(a.length).toBeLessThan(25);
  });

  it('bait is consumed per catch, and running out stops the gathering', () => {
    const { s, add, gather, count } = setup();
    const id = add(
      [
        { itemId: 'fishing_rod', quantity: 1 },
        { itemId: 'fishing_bait', quantity: 2 },
      ],
      next(AT.bait),
    );
    gather(id, 'spot_bait');
    s.step(10);
    expect(count(id, 'raw_trout')).toBe(2);
    expect(count(id, 'fishing_bait')).toBe(0);
    expect(s.lastEvent(id, 'gatheringStop')?.data.reason).toBe('interrupted');
  });

  it('formulas: success from level and tool, catch rate interpolation', () => {
    expect(successChance(1, 1, 0)).toBeCloseTo(0.35);
    expect(successChance(11, 1, 2)).toBeCloseTo(0.55);
    expect(successChance(99, 1, 9)).toBe(0.95);
    const yieldAt = {
      itemId: 'x',
      quantity: 1,
      chance: 1,
      xp: 0,
      levelRequired: 1,
      catchLow: 48,
      catchHigh: 127,
    };
    expect(catchChance(yieldAt, 1)).toBeCloseTo(49 / 256);
    expect(catchChance(yieldAt, 99)).toBeCloseTo(128 / 256);
  });
});

describe('gathering: depletion, respawn and stops', () => {
  it('a depleted node shows depleted:true to a viewer, refuses gathering, and respawns after respawnTicks', () => {
    const { s, add, gather, node, setLevel } = setup();
    const replicator = new Replicator(s.world);
    const sent: { to: string; event: string; payload: unknown }[] = [];
    s.afterTick.push((w) =>
      deliverTick(w, replicator, {
        send(to, event, payload) {
          sent.push({ to, event, payload });
          return undefined;
        },
      }),
    );
    const viewer = add([], { x: 110, z: 104 });
    const id = add([{ itemId: 'bronze_hatchet', quantity: 1 }], next(AT.oak));
    setLevel(id, 'woodcutting', 15);
    gather(id, 'tree_oak');
    for (let i = 0; i < 100 && !s.lastEvent(id, 'gatheringStop'); i++) s.step();
    expect(s.lastEvent(id, 'gatheringStop')?.data).toEqual({ reason: 'depleted' });
    const depletedAt = s.world.tick;
    const oak = node('tree_oak');
    const seen = () =>
      sent
        .filter((m) => m.to === viewer && m.event === 'world:update')
        .flatMap((m) => (m.payload as { entities: { id: string; depleted?: boolean }[] }).entities)
        .filter((e) => e.id === oak && e.depleted !== undefined)
        .map((e) => e.depleted);
    expect(seen()).toEqual([false, true]);
    gather(id, 'tree_oak');
    expect(s.lastEvent(id, 'error')?.data.code).toBe('INVALID_TARGET');
    s.step(depletedAt + 10 - s.world.tick - 1);
    expect(seen()).toEqual([false, true]);
    s.step();
    expect(seen()).toEqual([false, true, false]);
    gather(id, 'tree_oak');
    expect(s.eventsOf(id, 'gatheringStart')).toHaveLength(2);
  });

  it('a spot with moveTicks moves within its radius every moveTicks ticks; its gatherers stop (depleted)', () => {
    const { s, add, gather, node } = setup();
    const id = add([{ itemId: 'small_net', quantity: 1 }], next(AT.moving));
    const eid = s.world.eidByWireId.get(node('spot_moving')) as number;
    const at = () => ({ x: s.world.c.Position.x[eid] as number, z: s.world.c.Position.z[eid] as number });
    gather(id, 'spot_moving');
    expect(at()).toEqual(AT.moving);
    // Placed at tick 0: moves at 20, 40, 60...
    s.step(20 - s.world.tick - 1);
    expect(at()).toEqual(AT.moving);
    s.step();
    const moved = at();
    expect(moved).not.toEqual(AT.moving);
    expect(Math.max(Math.abs(moved.x - AT.moving.x), Math.abs(moved.z - AT.moving.z))).toBeLessThanOrEqual(2);
    expect(s.lastEvent(id, 'gatheringStop')?.data).toEqual({ reason: 'depleted' });
    s.step(20);
    expect(at()).not.toEqual(moved);
  });

  it('moving stops it (moved), a hit stops it (interrupted), a full inventory stops it (inventory_full)', () => {
    const { s, add, gather } = setup();
    const a = add([{ itemId: 'small_net', quantity: 1 }], next(AT.net));
    gather(a, 'spot_net');
    s.push({ type: 'move', characterId: a, x: 90, z: 90, run: false });
    s.step();
    expect(s.lastEvent(a, 'gatheringStop')?.data.reason).toBe('moved');

    const b = add([{ itemId: 'small_net', quantity: 1 }], next(AT.net));
    gather(b, 'spot_net');
    s.push({ type: 'damage', characterId: b, amount: 1 });
    s.step();
    expect(s.lastEvent(b, 'gatheringStop')?.data.reason).toBe('interrupted');

    const inv = full(26);
    inv.unshift({ itemId: 'small_net', quantity: 1 });
    const c = add(inv, next(AT.net));
    gather(c, 'spot_net');
    s.step(5);
    expect(s.lastEvent(c, 'gatheringStop')?.data.reason).toBe('inventory_full');
    expect(s.player(c).state.inventory.every((x) => x !== null)).toBe(true);
  });

  it('each yield dispatches itemGathered (quests count it); the gathering state is in the world hash', () => {
    const heard: [string, number][] = [];
    const probe = defineFeature({
      name: 'probe',
      on: { itemGathered: (_w, _p, itemId, qty) => void heard.push([itemId, qty]) },
    });
    const s = new Scenario({ content: skillsContent(), seed: 7, features: [probe] });
    populateWorld(s.world);
    const id = s.addPlayer({ name: 'Q', ...next(AT.net), inventory: [{ itemId: 'small_net', quantity: 1 }] });
    const before = worldHash(s.world);
    const target = s.world.wireIds[
      [...s.world.get(RESOURCES).byEid.values()].find((r) => r.resourceId === 'spot_net')?.eid as number
    ] as string;
    s.push({ type: 'action', characterId: id, action: 'gather', targetId: target });
    s.step();
    expect(worldHash(s.world)).not.toBe(before);
    s.step(10);
    expect(heard).toEqual([
      ['raw_shrimp', 1],
      ['raw_shrimp', 1],
    ]);
  });
});
