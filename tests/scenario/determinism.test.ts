import { describe, expect, it } from 'vitest';
import type { Command } from '../../ecs/core/commands.ts';
import { defineFeature } from '../../ecs/core/feature.ts';
import { populateWorld } from '../../ecs/core/populate.ts';
import { Rng } from '../../ecs/core/rng.ts';
import { worldHash } from '../../ecs/core/world-hash.ts';
import { testContent } from '../helpers/sim-content.ts';
import { type NewPlayer, Scenario } from './harness.ts';

/**
 * Runs `fn` with the sources of nondeterminism a simulation could reach by an alias the static rule
 * misses (`const r = Math['ran' + 'dom']`) made to throw: a session that calls one fails loudly.
 */
function withoutNondeterminism<T>(fn: () => T): T {
  const stubs: [object, string][] = [
    [Math, 'random'],
    [Date, 'now'],
    [globalThis.crypto, 'getRandomValues'],
    [globalThis.crypto, 'randomUUID'],
    [globalThis.performance, 'now'],
  ];
  const saved = stubs.map(([o, k]) => Object.getOwnPropertyDescriptor(o, k));
  for (const [o, k] of stubs)
    Object.defineProperty(o, k, {
      configurable: true,
      writable: true,
      value: () => {
        throw new Error(`the simulation called ${k}: not deterministic`);
      },
    });
  try {
    return fn();
  } finally {
    stubs.forEach(([o, k], i) => {
      const d = saved[i];
      if (d) Object.defineProperty(o, k, d);
      else delete (o as Record<string, unknown>)[k];
    });
  }
}

/**
 * A scripted session: players join, walk, run, cancel, chat and attack goblins (hits, deaths, loot and
 * respawns all roll the world's generator), driven by its own seeded script.
 */
function session(worldSeed: number, scriptSeed: number, ticks: number): string[] {
  return withoutNondeterminism(() => scripted(worldSeed, scriptSeed, ticks));
}

function scripted(worldSeed: number, scriptSeed: number, ticks: number): string[] {
  const blocked: [number, number][] = [];
  for (let z = 60; z <= 140; z++) blocked.push([90, z]);
  const s = new Scenario({ seed: worldSeed, content: testContent({ blocked }) });
  populateWorld(s.world);
  const script = new Rng(scriptSeed);
  const players = Array.from({ length: 12 }, (_, i) =>
    s.addPlayer({ name: `P${i}`, x: script.int(60, 140), z: script.int(60, 140) }),
  );
  const hashes: string[] = [];
  for (let t = 0; t < ticks; t++) {
    players.forEach((id, i) => {
      // The first three only fight: each keeps attacking its goblin (walking there first).
      if (i < 3) {
        if (t % 20 === 0)
          s.push({ type: 'action', characterId: id, action: 'attack', targetId: `npc-${2 + i}` });
        return;
      }
      const roll = script.int(0, 9);
      let cmd: Command | null = null;
      if (roll < 3)
        cmd = {
          type: 'move',
          characterId: id,
          x: script.int(0, 199),
          z: script.int(0, 199),
          run: roll === 0,
        };
      else if (roll === 3) cmd = { type: 'moveCancel', characterId: id };
      else if (roll === 4) cmd = { type: 'chat', characterId: id, message: `hello ${t}` };

      if (cmd) s.push(cmd);
    });
    s.step();
    hashes.push(worldHash(s.world));
  }
  return hashes;
}

describe('deterministic replay', () => {
  it('the same seed and the same commands give the same world hash at every tick', () => {
    const a = session(5, 99, 120);
    const b = session(5, 99, 120);
    expect(b).toEqual(a);
  });

  it('a feature that reaches for Math.random by an alias fails the session', () => {
    const key = ['ran', 'dom'].join('') as 'random';
    const sneaky = defineFeature({
      name: 'sneaky',
      systems: [{ name: 'sneaky', phase: 'guard', run: () => void Math[key]() }],
    });
    const s = new Scenario({ content: testContent({ npcSpawns: [] }), features: [sneaky] });
    expect(() => withoutNondeterminism(() => s.step())).toThrow('the simulation called random');
    // Outside the guard the same world steps (the guard, not the feature, made it throw).
    expect(() => s.step()).not.toThrow();
  });

  it('a different world seed or different commands give a different world', () => {
    const a = session(5, 99, 40);
    expect(session(6, 99, 40).at(-1)).not.toBe(a.at(-1));
    expect(session(5, 98, 40).at(-1)).not.toBe(a.at(-1));
  });
});

describe('the world hash', () => {
  /** Two players, one by the bank booth, no NPCs: nothing changes unless a command changes it. */
  function quiet() {
    const s = new Scenario({ content: testContent({ npcSpawns: [] }) });
    populateWorld(s.world);
    const spawn = s.world.content.spawn;
    const stuff: NewPlayer['inventory'] = [
      { itemId: 'logs', quantity: 1 },
      { itemId: 'bronze_sword', quantity: 1 },
    ];
    const a = s.addPlayer({
      name: 'Ann',
      x: spawn.x - 2,
      inventory: stuff,
      coins: 50,
      bank: [{ itemId: 'logs', quantity: 2 }],
    });
    const b = s.addPlayer({ name: 'Ben', x: spawn.x - 1, inventory: stuff });
    return { s, a, b };
  }

  it('is the state, not the tick: idle ticks leave it as it is', () => {
    const { s } = quiet();
    const before = worldHash(s.world);
    s.step(25);
    expect(worldHash(s.world)).toBe(before);
  });

  it('changes with one changed command, in every kind of state it covers', () => {
    const changes: [string, (q: ReturnType<typeof quiet>) => void][] = [
      [
        'position',
        ({ s, a }) =>
          s.push({
            type: 'move',
            characterId: a,
            x: s.world.content.spawn.x - 5,
            z: s.world.content.spawn.z,
            run: false,
          }),
      ],
      ['health', ({ s, a }) => s.push({ type: 'damage', characterId: a, amount: 3 })],
      [
        'inventory and ground items',
        ({ s, a }) => s.push({ type: 'inventoryDrop', characterId: a, slot: 0 }),
      ],
      ['inventory order', ({ s, a }) => s.push({ type: 'inventoryMove', characterId: a, from: 0, to: 5 })],
      ['equipment', ({ s, a }) => s.push({ type: 'inventoryUse', characterId: a, slot: 1 })],
      [
        'skills',
        ({ s, a }) => {
          s.world.players.get(a)!.admin = true;
          s.push({ type: 'chatCommand', characterId: a, name: 'xp', args: ['mining', '100'] });
        },
      ],
      ['trades', ({ s, a, b }) => s.push({ type: 'tradeRequest', characterId: a, targetPlayerId: b })],
      [
        'bank and transactions in flight',
        ({ s, a }) => s.push({ type: 'bankWithdraw', characterId: a, itemId: 'logs', quantity: 1 }),
      ],
      ['the generator', ({ s }) => void s.world.rng.int(0, 9)],
    ];
    const reference = quiet();
    reference.s.step(3);
    const same = quiet();
    same.s.step(3);
    expect(worldHash(same.s.world)).toBe(worldHash(reference.s.world));
    for (const [kind, change] of changes) {
      const q = quiet();
      change(q);
      q.s.step(3);
      expect(worldHash(q.s.world), kind).not.toBe(worldHash(reference.s.world));
    }
  });
});
