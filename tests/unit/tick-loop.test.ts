import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { emptyInventory } from '../../ecs/core/character-state.ts';
import { CommandQueue } from '../../ecs/core/commands.ts';
import type { ItemTxRequest } from '../../ecs/core/persist-intents.ts';
import { newSkills } from '../../ecs/core/skills.ts';
import type { GameWorld } from '../../ecs/core/world.ts';
import { createGameWorld } from '../../ecs/game.ts';
import { PLAN } from '../../ecs/schedule.ts';
import { Replicator } from '../../net/replication/replicator.ts';
import type { Delivery } from '../../net/session/outbound.ts';
import { DirtyPacer, handOff, type PersistenceSink } from '../../src/persistence-handoff.ts';
import { type Clock, TickLoop } from '../../src/tick-loop.ts';
import { createTickMetrics } from '../../src/tick-metrics.ts';
import { testContent } from '../helpers/sim-content.ts';

/** A manual clock: timers fire only when the test advances time. `lateBy` delays every timer firing. */
class FakeClock implements Clock {
  time = 0;
  lateBy = 0;
  private timers: { at: number; fn: () => void; id: number }[] = [];
  private nextId = 1;
  now = () => this.time;
  wallNow = () => 1_700_000_000_000 + this.time;
  setTimeout = (fn: () => void, ms: number) => {
    const id = this.nextId++;
    this.timers.push({ at: this.time + ms + this.lateBy, fn, id });
    return id;
  };
  clearTimeout = (h: unknown) => {
    this.timers = this.timers.filter((t) => t.id !== h);
  };
  advanceTo(t: number): void {
    for (;;) {
      this.timers.sort((a, b) => a.at - b.at);
      const due = this.timers[0];
      if (!due || due.at > t) break;
      this.timers.shift();
      this.time = Math.max(this.time, due.at);
      due.fn();
    }
    this.time = Math.max(this.time, t);
  }
}

function joinCommand(id: string, x = 50, z = 50) {
  return {
    type: 'join' as const,
    characterId: id,
    accountId: `acct-${id}`,
    state: {
      id,
      accountId: `acct-${id}`,
      name: id,
      position: { x, y: 0, z },
      health: 100,
      coins: 0,
      skills: newSkills(),
      inventory: emptyInventory(),
      equipment: {},
      bank: [],
    },
  };
}

function setup(
  opts: {
    onSend?: (clock: FakeClock) => void;
    sink?: PersistenceSink;
    registry?: Registry;
    saveIntervalMs?: number;
  } = {},
) {
  const world = createGameWorld({ content: testContent(), seed: 1, tickMs: 600 });
  const queue = new CommandQueue();
  const clock = new FakeClock();
  const sent: { to: string; event: string; payload: unknown }[] = [];
  const warnings: { obj: object; msg?: string | undefined }[] = [];
  const delivery: Delivery = {
    send(to, event, payload) {
      sent.push({ to, event, payload });
      opts.onSend?.(clock);
      return 10;
    },
  };
  const loop = new TickLoop({
    world,
    queue,
    replicator: new Replicator(world),
    delivery,
    persistence: opts.sink,
    saveIntervalMs: opts.saveIntervalMs,
    logger: { warn: (obj, msg) => warnings.push({ obj, msg }), error: () => {} },
    metrics: opts.registry ? createTickMetrics(opts.registry) : undefined,
    clock,
  });
  return { world, queue, clock, sent, warnings, loop };
}

describe('tick loop', () => {
  it('runs tick n at start + n * TICK_MS even when timers fire late (no drift)', () => {
    const { world, clock, loop } = setup();
    clock.lateBy = 40;
    const at: number[] = [];
    const origRun = loop.runTick.bind(loop);
    loop.runTick = () => {
      at.push(clock.time);
      return origRun();
    };
    loop.start();
    clock.advanceTo(3100);
    // Each firing is 40 ms late, but the next is still aimed at the boundary: late by 40, never more.
    expect(at).toEqual([640, 1240, 1840, 2440, 3040]);
    expect(world.tick).toBe(5);
    loop.stop();
    clock.advanceTo(10_000);
    expect(world.tick).toBe(5);
  });

  it('an overrunning tick is logged with its phase timings and the next waits for the next boundary', () => {
    let slow = true;
    const { world, queue, clock, warnings, loop } = setup({
      onSend: (c) => {
        if (slow) {
          slow = false;
          c.time += 1500; // this tick's replication takes 1.5 s
        }
      },
    });
    queue.push(joinCommand('a'));
    loop.start();
    clock.advanceTo(600); // tick 1 starts at 600, ends at 2100
    expect(world.tick).toBe(1);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.obj).toMatchObject({ tick: 1, skipped: 2, phases: { replication: 1500 } });
    expect(Object.keys((warnings[0]?.obj as { phases: object } | undefined)?.phases ?? {})).toEqual(
      expect.arrayContaining(['commands', 'pathfinding', 'movement', 'replication']),
    );
    // Ticks due at 1200 and 1800 are skipped, not run back to back; the next one runs at 2400.
    clock.advanceTo(2399);
    expect(world.tick).toBe(1);
    clock.advanceTo(2400);
    expect(world.tick).toBe(2);
    clock.advanceTo(3000);
    expect(world.tick).toBe(3);
    expect(loop.status()).toMatchObject({ number: 3, overruns: 1, skipped: 2 });
    loop.stop();
  });

  it('drains commands, delivers, and reports per-phase timings and metrics', async () => {
    const registry = new Registry();
    const { world, queue, sent, loop } = setup({ registry });
    queue.push(joinCommand('a'));
    loop.runTick();
    queue.push({ type: 'move', characterId: 'a', x: 60, z: 50, run: false });
    loop.runTick();
    expect(world.players.has('a')).toBe(true);
    // Entering also sends the prayer points (prayer:state) and the friend lists (social:list): the
    // tick's events first, then the view, then the player's own state.
    expect(sent.map((m) => m.event)).toEqual([
      'prayer:state',
      'social:list',
      'world:update',
      'player:sync',
      'world:update',
    ]);
    const status = loop.status();
    expect(status.number).toBe(2);
    // Every system of the schedule, in order, between the commands and replication, then the writes.
    expect(Object.keys(status.phases)).toEqual([
      'commands',
      ...PLAN.systems.map((s) => s.name),
      'replication',
      'delivery',
    ]);
    expect(PLAN.systems.map((s) => s.name).slice(0, 4)).toEqual([
      'pathfinding',
      'movement',
      'runEnergy',
      'npcs',
    ]);
    const text = await registry.metrics();
    expect(text).toMatch(/game_tick_duration_seconds_count 2/);
    expect(text).toMatch(/game_tick_phase_duration_seconds_count\{phase="movement"\} 2/);
    expect(text).toMatch(/game_players_online 1/);
    expect(text).toMatch(/game_tick_messages_in_total 2/);
    expect(text).toMatch(/game_tick_messages_out_total 5/);
    expect(text).toMatch(/game_tick_bytes_out_total 50/);
  });

  it('reuses metrics another module already registered (players online)', () => {
    const registry = new Registry();
    const a = createTickMetrics(registry);
    const b = createTickMetrics(registry);
    expect(b.playersOnline).toBe(a.playersOnline);
  });
});

function recordingSink() {
  const calls: string[] = [];
  let txOk = true;
  const sink: PersistenceSink & { calls: string[]; failTx(): void } = {
    calls,
    failTx: () => {
      txOk = false;
    },
    itemsChanged: (s) => calls.push(`items:${s.id}:${s.position.x}`),
    dirty: (s) => calls.push(`dirty:${s.id}:${s.position.x}`),
    logout: async (s) => {
      calls.push(`logout:${s.id}`);
    },
    runTransaction: async (tx) => {
      calls.push(`tx:${tx.id}`);
      return txOk ? { ok: true } : { ok: false, reason: 'conflict' };
    },
    deathLock: async (l) => {
      calls.push(`death:${l.id}`);
      return { ok: true };
    },
    tradeAudit: (a) => calls.push(`audit:${a.tradeId}`),
    flushTick: () => calls.push('flush'),
  };
  return sink;
}

describe('persistence hand-off', () => {
  it('hands dirty and left characters over each tick, then flushes', () => {
    const sink = recordingSink();
    const { queue, loop } = setup({ sink });
    queue.push(joinCommand('a', 50, 50));
    loop.runTick();
    queue.push({ type: 'move', characterId: 'a', x: 60, z: 50, run: false });
    loop.runTick();
    queue.push({ type: 'leave', characterId: 'a', reason: 'logout' });
    loop.runTick();
    expect(sink.calls).toEqual(['flush', 'dirty:a:52', 'flush', 'logout:a', 'flush']);
  });

  it("spaces a walking player's dirty hand-overs 5 ticks apart at a 60 s interval; the last state always follows", () => {
    const sink = recordingSink();
    const { world, queue, loop } = setup({ sink, saveIntervalMs: 60_000 });
    queue.push(joinCommand('a', 50, 50));
    loop.runTick();
    queue.push({ type: 'move', characterId: 'a', x: 90, z: 50, run: false });
    const handed: { tick: number; x: number }[] = [];
    for (let t = 0; t < 30; t++) {
      const before = sink.calls.length;
      loop.runTick();
      for (const c of sink.calls.slice(before)) {
        const m = /^dirty:a:(\d+)$/.exec(c);
        if (m) handed.push({ tick: world.tick, x: Number(m[1]) });
      }
    }
    // 20 ticks of walking (2 tiles a tick): handed over at its first step, then every 5 ticks with the
    // position then, and the final tile within 5 ticks of arriving; nothing more once it stands still.
    expect(handed[0]).toEqual({ tick: handed[0]?.tick, x: 52 });
    const gaps = handed.slice(1).map((h, i) => h.tick - (handed[i] as { tick: number }).tick);
    expect(gaps.every((g) => g === 5)).toBe(true);
    expect(handed.at(-1)?.x).toBe(90);
    expect(handed.length).toBe(5);
    // A walk's hand-over still waiting when the character leaves: its leaving snapshot is the save.
    queue.push({ type: 'move', characterId: 'a', x: 80, z: 50, run: false });
    loop.runTick();
    loop.runTick();
    queue.push({ type: 'leave', characterId: 'a', reason: 'logout' });
    const before = sink.calls.length;
    for (let t = 0; t < 6; t++) loop.runTick();
    expect(sink.calls.slice(before).filter((c) => c.startsWith('dirty:a'))).toEqual([]);
    expect(sink.calls.slice(before)).toContain('logout:a');
  });

  it('every tick when the save interval is short (tests: SAVE_INTERVAL 1 s at a 50 ms tick)', () => {
    expect(DirtyPacer.forInterval(1000, 50).everyTicks).toBe(1);
    expect(DirtyPacer.forInterval(60_000, 600).everyTicks).toBe(5);
    expect(DirtyPacer.forInterval(600_000, 50).everyTicks).toBe(5);
  });

  it('writes death locks first, flushes snapshots before transactions, returns tx outcomes as txResult', async () => {
    const world: GameWorld = createGameWorld({ content: testContent(), seed: 1 });
    const queue = new CommandQueue();
    const sink = recordingSink();
    const holdings = { inventory: emptyInventory(), coins: 0, bank: [] };
    const tx: ItemTxRequest = {
      id: 'tx-1',
      kind: 'bank_deposit',
      requesterId: 'a',
      changes: [],
      conserve: true,
    };
    world.persist.transactions.push(tx);
    world.persist.deathLocks.push({
      id: 'dl-1',
      characterId: 'b',
      position: { x: 1, y: 0, z: 1 },
      items: [],
      before: holdings,
      after: holdings,
    });
    handOff(world, sink, queue, { error: () => {} });
    sink.failTx();
    world.persist.transactions[0] = { ...tx, id: 'tx-2' };
    world.persist.deathLocks.length = 0;
    handOff(world, sink, queue, { error: () => {} });
    await new Promise((r) => setTimeout(r, 0));
    expect(sink.calls).toEqual(['death:dl-1', 'flush', 'tx:tx-1', 'flush', 'tx:tx-2']);
    expect(queue.drain()).toEqual([
      { type: 'txResult', characterId: 'a', txId: 'tx-1', ok: true, reason: undefined },
      { type: 'txResult', characterId: 'a', txId: 'tx-2', ok: false, reason: 'conflict' },
    ]);
  });
});
