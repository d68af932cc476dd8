import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { GameClient } from '../../tests/crash/game-client.ts';
import { type LoopStats, tradeLoop } from '../../tests/crash/trade-driver.ts';
import type { WorkerInit, WorkerReport } from '../load/protocol.ts';
import { type ActivityStats, fightLoop, GOOSE_SPOT, RAT_SPOT, skillLoop, TREE_SPOT } from './activities.ts';
import { describeTrend, memoryTrend, warmUpEndsMs } from './memory-trend.ts';
import type { SoakSample } from './server.ts';

/**
 * npm run soak (issue 19): SOAK_BOTS bots (default 2,000, in worker threads: walk and chat, as
 * bench:load's) plus SOAK_PAIRS pairs of players trading and banking next to the bank, SOAK_FIGHTERS
 * players fighting the rats and geese and SOAK_SKILLERS chopping trees and lighting fires (default 20
 * each; bench/soak/activities.ts), for
 * SOAK_MINUTES (default 5; 60 for the record) against the real world server in a child process.
 * Prints every SOAK_SAMPLE_MS the server's RSS and heap, players, active handles; every minute the tick
 * p99 and the errors the bots were sent; at the end the memory trend after warm-up (heap floor and
 * median RSS per SOAK_WINDOW_MINUTES window, flat within 5 %). Then every client leaves and the server
 * must be back to its idle state: no player left in the world (sessions), no more timers or handles
 * and no more `process` listeners than before the first login. Exit 1 on a leak or memory not flat.
 */

const env = process.env;
const BOTS = Number(env['SOAK_BOTS'] ?? 2000);
const PAIRS = Number(env['SOAK_PAIRS'] ?? 20);
const FIGHTERS = Number(env['SOAK_FIGHTERS'] ?? 20);
const SKILLERS = Number(env['SOAK_SKILLERS'] ?? 20);
const MINUTES = Number(env['SOAK_MINUTES'] ?? 5);
const TICK_MS = Number(env['SOAK_TICK_MS'] ?? 600);
const SAMPLE_MS = Number(env['SOAK_SAMPLE_MS'] ?? 10_000);
const WORKERS = Number(env['SOAK_WORKERS'] ?? 2);
const WINDOW_MS = Number(env['SOAK_WINDOW_MINUTES'] ?? 5) * 60_000;
const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const ADMIN_CODE = `soak-${randomBytes(8).toString('hex')}`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const mb = (n: number) => Math.round(n / 1024 / 1024);
/** Next to the Emberfold bank chest (588,614) and banker (590,612). */
const SPOTS: [number, number][] = [
  [589, 612],
  [589, 613],
  [589, 614],
  [590, 613],
  [590, 614],
  [591, 613],
];

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

const samples: (SoakSample & { at: number })[] = [];
let waiting: ((s: SoakSample) => void) | undefined;

async function startServer(): Promise<{ child: ChildProcess; port: number; dir: string; ready: SoakSample }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'soak-'));
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/soak/server.ts'], {
    cwd: REPO,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    env: {
      PATH: env['PATH'] ?? '',
      HOME: env['HOME'] ?? '/tmp',
      PORT: String(port),
      HOST: '127.0.0.1',
      NODE_ENV: 'development',
      WORLD: dir,
      PGLITE_DATA_DIR: path.join(dir, 'db'),
      ...(env['SOAK_DATABASE_URL'] ? { DATABASE_URL: env['SOAK_DATABASE_URL'] } : {}),
      SKIP_MANIFESTS: 'true',
      SKIP_ASSETS: 'true',
      TICK_MS: String(TICK_MS),
      DISABLE_RATE_LIMIT: 'true',
      // Every bot connects from 127.0.0.1: the per-address and unauthenticated caps are for the internet.
      WS_MAX_CONNECTIONS_PER_ADDRESS: '100000',
      WS_MAX_UNAUTHENTICATED: '100000',
      METRICS_PORT: 'off',
      ADMIN_CODE,
      JWT_SECRET: randomBytes(32).toString('hex'),
      LOG_LEVEL: env['LOG_LEVEL'] ?? 'error',
      SOAK_SAMPLE_MS: String(SAMPLE_MS),
    },
  });
  const ready = await new Promise<SoakSample>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`soak server exited with ${code} during start-up`)));
    child.on('message', (m: SoakSample | (Omit<SoakSample, 'type'> & { type: 'ready' })) => {
      if (m.type === 'ready') resolve({ ...m, type: 'sample' });
      else {
        samples.push({ ...m, at: performance.now() });
        waiting?.(m);
        waiting = undefined;
      }
    });
  });
  return { child, port, dir, ready };
}

function sampleNow(child: ChildProcess): Promise<SoakSample> {
  return new Promise((resolve) => {
    waiting = resolve;
    child.send({ type: 'sample' });
  });
}

function p99(values: number[]): number {
  if (values.length === 0) return 0;
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(0.99 * s.length) - 1)] as number;
}

async function main(): Promise<void> {
  console.log(
    `soak: ${BOTS} bots + ${PAIRS} trading pairs + ${FIGHTERS} fighters + ${SKILLERS} skillers for ${MINUTES} min, tick ${TICK_MS} ms`,
  );
  const { child, port, dir, ready } = await startServer();
  const wsUrl = `ws://127.0.0.1:${port}/ws`;
  let started = performance.now();
  const errors = new Map<string, number>();
  const inWorld = new Map<number, number>();
  const failed = new Map<number, number>();
  // Trading and banking pairs next to the bank.
  const stats: LoopStats = { trades: 0, banks: 0, completing: 0 };
  const traders: GameClient[] = [];
  const loops: Promise<void>[] = [];
  // All pairs at once: each setup command waits for a tick.
  await Promise.all(
    Array.from({ length: PAIRS }, async (_, i) => {
      const pair = [await GameClient.connect(wsUrl), await GameClient.connect(wsUrl)];
      // Before the bots arrive: each setup command waits for a tick.
      for (const [k, c] of pair.entries()) {
        await c.command(`/admin ${ADMIN_CODE}`);
        const [x, z] = SPOTS[(i * 2 + k) % SPOTS.length] as [number, number];
        await c.command(`/tp ${x} ${z}`);
        await c.command('/give bronze_dagger 2');
        await c.command('/give coins 200');
        traders.push(c);
      }
      loops.push(tradeLoop(pair[0] as GameClient, pair[1] as GameClient, stats));
    }),
  );
  // Fighters and skillers: each setup command waits for a tick, so all at once.
  const activity: ActivityStats = { kills: 0, logs: 0, fires: 0, timeouts: 0 };
  await Promise.all(
    Array.from({ length: FIGHTERS + SKILLERS }, async (_, i) => {
      const c = await GameClient.connect(wsUrl);
      const fighter = i < FIGHTERS;
      const [x, z] = fighter ? (i % 2 === 0 ? RAT_SPOT : GOOSE_SPOT) : TREE_SPOT;
      await c.command(`/admin ${ADMIN_CODE}`);
      await c.command(`/tp ${x} ${z}`);
      traders.push(c);
      loops.push(fighter ? fightLoop(c, activity) : skillLoop(c, activity));
    }),
  );
  console.log(
    `${PAIRS} trading pairs, ${FIGHTERS} fighters, ${SKILLERS} skillers ready after ${((performance.now() - started) / 1000).toFixed(0)} s`,
  );
  started = performance.now(); // the soak's clock starts with the bots

  const workers: Worker[] = [];
  const per = Math.ceil(BOTS / WORKERS);
  for (let w = 0; w < WORKERS && w * per < BOTS; w++) {
    const init: WorkerInit = {
      url: wsUrl,
      firstBot: w * per,
      bots: Math.min(per, BOTS - w * per),
      rampPerSecond: 100 / WORKERS,
      scenario: 'spread',
      tickMs: TICK_MS,
      moveEveryMin: 3,
      moveEveryMax: 6,
      chatChance: 0.05,
      spreadRadius: 300,
      hotspotSize: 40,
      probes: 0,
    };
    const worker = new Worker(new URL('../load/bot-worker-boot.mjs', import.meta.url), { workerData: init });
    worker.on('message', (r: WorkerReport) => {
      inWorld.set(w, r.inWorld);
      failed.set(w, r.failed);
      for (const [code, n] of Object.entries(r.errors)) errors.set(code, (errors.get(code) ?? 0) + n);
    });
    worker.on('error', (err) => console.error(`bot worker ${w}:`, err));
    workers.push(worker);
  }

  const sum = (m: Map<number, number>) => [...m.values()].reduce((a, b) => a + b, 0);
  const end = started + MINUTES * 60_000;
  let minute = 0;
  let printed = 0;
  const perMinute: { minute: number; p99: number; ticks: number; errors: Record<string, number> }[] = [];
  let minuteTicks: number[] = [];
  let allInAt = end;
  while (performance.now() < end) {
    await sleep(1000);
    if (allInAt === end && sum(inWorld) >= BOTS) allInAt = performance.now();
    for (; printed < samples.length; printed++) {
      const s = samples[printed] as SoakSample & { at: number };
      minuteTicks.push(...s.tickMs);
      const t = ((s.at - started) / 1000).toFixed(0);
      console.log(
        `t=${t}s rss=${mb(s.rss)}MB heap=${mb(s.heapUsed)}MB players=${s.players} bots=${sum(inWorld)} failed=${sum(failed)} ` +
          `trades=${stats.trades} banks=${stats.banks} kills=${activity.kills} logs=${activity.logs} fires=${activity.fires} ` +
          `timers=${s.resources['Timeout'] ?? 0} handles=${Object.values(s.resources).reduce((a, b) => a + b, 0)}`,
      );
    }
    const m = Math.floor((performance.now() - started) / 60_000);
    if (m > minute) {
      perMinute.push({
        minute: m,
        p99: p99(minuteTicks),
        ticks: minuteTicks.length,
        errors: Object.fromEntries(errors),
      });
      console.log(
        `minute ${m}: tick p99 ${p99(minuteTicks).toFixed(1)} ms over ${minuteTicks.length} ticks, errors sent to bots ${JSON.stringify(Object.fromEntries(errors))}`,
      );
      errors.clear();
      minuteTicks = [];
      minute = m;
    }
  }

  // Everyone leaves; the server must return to idle.
  // Listen for the exits first: a worker exits 500 ms after `stop`, maybe before the loops end.
  const exited = Promise.all(workers.map((w) => new Promise((r) => w.once('exit', r))));
  for (const w of workers) w.postMessage({ type: 'stop' });
  for (const c of traders) c.close();
  await Promise.all(loops);
  await exited;
  let after = await sampleNow(child);
  console.log(`every client closed; ${after.players} players still in the world, waiting for them to leave`);
  for (let i = 0; i < 60 && after.players > 0; i++) {
    await sleep(1000);
    after = await sampleNow(child);
  }
  await sleep(Math.max(3000, TICK_MS * 5)); // timers of the last leaves run out
  after = await sampleNow(child);

  // Memory after warm-up, judged on the heap floor and median RSS of fixed windows (memory-trend.ts).
  const warmFrom = started + warmUpEndsMs(allInAt - started, MINUTES);
  const warm = samples.filter((s) => s.at > warmFrom && s.at < end);
  const trend = memoryTrend(
    warm.map((s) => ({ atMs: s.at - started, rss: s.rss, heapUsed: s.heapUsed })),
    WINDOW_MS,
  );
  const memory = describeTrend(trend, WINDOW_MS);
  const rssWarm = warm.map((s) => s.rss);
  const leaks: string[] = [];
  if (after.players !== 0) leaks.push(`${after.players} players still in the world`);
  const timers = (s: SoakSample) => s.resources['Timeout'] ?? 0;
  if (timers(after) > timers(ready) + 2) leaks.push(`timers ${timers(ready)} -> ${timers(after)}`);
  const handles = (s: SoakSample) => Object.values(s.resources).reduce((a, b) => a + b, 0);
  if (handles(after) > handles(ready) + 4)
    leaks.push(`handles ${JSON.stringify(ready.resources)} -> ${JSON.stringify(after.resources)}`);
  if (after.processListeners > ready.processListeners)
    leaks.push(`process listeners ${ready.processListeners} -> ${after.processListeners}`);
  const result = {
    bots: BOTS,
    pairs: PAIRS,
    minutes: MINUTES,
    botsFailed: sum(failed),
    trades: stats.trades,
    banks: stats.banks,
    fighters: FIGHTERS,
    skillers: SKILLERS,
    kills: activity.kills,
    logsChopped: activity.logs,
    firesLit: activity.fires,
    activityTimeouts: activity.timeouts,
    tickP99PerMinute: perMinute.map((m) => Number(m.p99.toFixed(1))),
    rssMB: {
      idle: mb(ready.rss),
      warmMin: mb(Math.min(...rssWarm)),
      warmMax: mb(Math.max(...rssWarm)),
      after: mb(after.rss),
    },
    heapMB: { idle: mb(ready.heapUsed), after: mb(after.heapUsed) },
    memoryAfterWarmup: memory,
    idle: { resources: ready.resources, processListeners: ready.processListeners },
    afterAllLeft: {
      players: after.players,
      resources: after.resources,
      processListeners: after.processListeners,
    },
    leaks,
  };
  console.log(JSON.stringify(result, null, 2));
  child.send({ type: 'stop' });
  await new Promise((r) => child.once('exit', r));
  fs.rmSync(dir, { recursive: true, force: true });
  console.log(
    leaks.length === 0 ? 'PASS: no leak of sessions, timers or listeners' : `FAIL: ${leaks.join('; ')}`,
  );
  console.log(`memory after warm-up: ${memory.verdict}`);
  process.exit(leaks.length === 0 && trend.flat !== false ? 0 : 1);
}

try {
  await main();
} catch (err) {
  console.error('soak failed:', err);
  process.exit(1); // the server child sees the IPC channel close and stops
}
