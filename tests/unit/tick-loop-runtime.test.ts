import { describe, expect, it } from 'vitest';
import { emptyInventory } from '../../ecs/core/character-state.ts';
import { newSkills } from '../../ecs/core/skills.ts';
import { NPCS } from '../../ecs/features/npcs/index.ts';
import type { PersistenceSink } from '../../src/persistence-handoff.ts';
import { WorldRuntime } from '../../src/world-runtime.ts';
import { testContent } from '../helpers/sim-content.ts';

describe('world runtime', () => {
  it('populates the world, ticks on enqueue, and saves every player on shutdown', async () => {
    const saved: string[] = [];
    let release: () => void = () => {};
    const sink: PersistenceSink = {
      itemsChanged: () => {},
      dirty: () => {},
      logout: (s) =>
        new Promise<void>((resolve) => {
          release = () => {
            saved.push(`${s.id}@${s.position.x},${s.position.z}`);
            resolve();
          };
        }),
      runTransaction: async () => ({ ok: true }),
      deathLock: async () => ({ ok: true }),
      tradeAudit: () => {},
      flushTick: () => {},
    };
    const rt = new WorldRuntime({
      content: testContent(),
      seed: 3,
      tickMs: 600,
      delivery: { send: () => undefined },
      persistence: sink,
      logger: { warn: () => {}, error: () => {} },
    });
    expect(rt.world.get(NPCS).byEid.size).toBe(4);
    const state = {
      id: 'c1',
      accountId: 'a1',
      name: 'Saver',
      position: { x: 10, y: 0, z: 10 },
      health: 100,
      coins: 0,
      skills: newSkills(),
      inventory: emptyInventory(),
      equipment: {},
      bank: [],
    };
    rt.enqueue({ type: 'join', characterId: 'c1', accountId: 'a1', state });
    rt.loop.runTick();
    rt.enqueue({ type: 'move', characterId: 'c1', x: 14, z: 10, run: false });
    rt.loop.runTick();
    expect(rt.playersOnline()).toBe(1);
    let done = false;
    const shutdown = rt.shutdown().then(() => {
      done = true;
    });
    await new Promise((r) => setTimeout(r, 5));
    expect(done).toBe(false); // waits for the save
    release();
    await shutdown;
    expect(saved).toEqual(['c1@12,10']);
    expect(rt.playersOnline()).toBe(0);
    expect(rt.tickStatus().number).toBe(3);
  });
});

describe('world runtime as the sessions’ world gate', () => {
  it('leaveAndSave resolves after the tick applied the leave and the save finished', async () => {
    const saved: string[] = [];
    const sink: PersistenceSink = {
      itemsChanged: () => {},
      dirty: () => {},
      logout: async (s) => {
        await new Promise((r) => setTimeout(r, 5));
        saved.push(s.id);
      },
      runTransaction: async () => ({ ok: true }),
      deathLock: async () => ({ ok: true }),
      tradeAudit: () => {},
      flushTick: () => {},
    };
    const rt = new WorldRuntime({
      content: testContent(),
      seed: 3,
      tickMs: 600,
      delivery: { send: () => undefined },
      persistence: sink,
      logger: { warn: () => {}, error: () => {} },
    });
    const state = {
      id: 'c1',
      accountId: 'a1',
      name: 'Gate',
      position: { x: 10, y: 0, z: 10 },
      health: 100,
      coins: 0,
      skills: newSkills(),
      inventory: emptyInventory(),
      equipment: {},
      bank: [],
    };
    rt.enqueue({ type: 'join', characterId: 'c1', accountId: 'a1', state });
    rt.loop.runTick();
    expect(rt.isInWorld('c1')).toBe(true);
    let left = false;
    const leaving = rt.leaveAndSave('c1', 'takeover').then(() => {
      left = true;
    });
    await new Promise((r) => setTimeout(r, 10));
    expect(left).toBe(false); // no tick yet
    rt.loop.runTick();
    expect(rt.isInWorld('c1')).toBe(false);
    await leaving;
    expect(saved).toEqual(['c1']);
    // Not in the world: resolves after the next tick, with nothing saved.
    const again = rt.leaveAndSave('c1', 'disconnect');
    rt.loop.runTick();
    await again;
    expect(saved).toEqual(['c1']);
  });
});
