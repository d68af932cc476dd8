import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import cliProgress from 'cli-progress';
import * as hdr from 'hdr-histogram-js';
import { placeFight } from './fight-area.ts';
import { parseOptions } from './options.ts';
import {
  histogramQuantile,
  type Metrics,
  phases,
  readMetrics,
  readStatus,
  total,
  windowMean,
} from './probe.ts';
import { COMBAT_COUNTS, isProbe, type WorkerInit, type WorkerReport } from './protocol.ts';
import { type ServerProcess, startServer } from './server.ts';

/**
 * npm run bench:load [-- --bots=2000 --scenario=spread|hotspot --duration=60 ...] (see options.ts)
 *
 * Starts the real server as a child process (unless --url names one), ramps up N WebSocket bots spread
 * over worker threads with a progress bar, lets them settle, measures for --duration seconds, then
 * prints the server's own figures (tick p50/p99/max, phase split, messages and bytes out per second,
 * RSS at the end of the window and per player; for a server it started, also the RSS peak: the most
 * sampled each second in the window and VmHWM since start), the probe bots' move -> own-entity-moved latency, and the CPU the bots and the
 * server each used over the window (both on this machine), and stops everything.
 */

const opts = parseOptions(process.argv.slice(2), process.env);
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let server: ServerProcess | null = null;
const workers: Worker[] = [];
const latency = hdr.build({
  lowestDiscernibleValue: 1,
  highestTrackableValue: 600_000,
  numberOfSignificantValueDigits: 3,
});
const state = {
  inWorld: new Map<number, number>(),
  failed: new Map<number, number>(),
  errors: new Map<string, number>(),
};
let measuring = false;
const combat = new Map<string, number>();
/** Combat bots: errors and closes before the window (a bot closed while ramping never enters it). */
const rampErrors = new Map<string, number>();

async function main(): Promise<void> {
  let base: string;
  let wsUrl: string;
  if (opts.url) {
    wsUrl = opts.url;
    base = opts.url.replace(/^ws/, 'http').replace(/\/ws$/, '');
  } else {
    console.log(`starting the server (TICK_MS=${opts.tickMs}) ...`);
    const fight =
      opts.scenario === 'combat'
        ? (dir: string) => placeFight(dir, opts.npcs ?? opts.bots, opts.areaSize)
        : undefined;
    const root = opts.serverRoot ?? repoRoot;
    server = await startServer(root, opts.tickMs, {}, fight, opts.contentRoot ?? root);
    base = server.base;
    wsUrl = server.wsUrl;
  }
  const idle = await readMetrics(base);
  const rssIdle = total(idle, 'game_process_resident_memory_bytes');

  const perWorker = Math.ceil(opts.bots / opts.workers);
  for (let w = 0; w < opts.workers; w++) {
    const bots = Math.min(perWorker, opts.bots - w * perWorker);
    if (bots <= 0) break;
    const init: WorkerInit = {
      url: wsUrl,
      firstBot: w * perWorker,
      bots,
      rampPerSecond: opts.ramp / opts.workers,
      scenario: opts.scenario,
      tickMs: opts.tickMs,
      moveEveryMin: opts.moveEveryMin,
      moveEveryMax: Math.max(opts.moveEveryMin, opts.moveEveryMax),
      chatChance: opts.chatChance,
      spreadRadius: opts.spreadRadius,
      hotspotSize: opts.hotspotSize,
      probes: opts.probes,
    };
    const worker = new Worker(new URL('./bot-worker-boot.mjs', import.meta.url), {
      workerData: init,
    });
    worker.on('message', (r: WorkerReport) => {
      state.inWorld.set(w, r.inWorld);
      state.failed.set(w, r.failed);
      if (!measuring && opts.scenario === 'combat')
        for (const [code, n] of Object.entries(r.errors))
          rampErrors.set(code, (rampErrors.get(code) ?? 0) + n);
      if (measuring) {
        for (const k of COMBAT_COUNTS) combat.set(k, (combat.get(k) ?? 0) + (r[k] ?? 0));
        for (const ms of r.latencies) latency.recordValue(Math.max(1, Math.round(ms)));
        for (const [code, n] of Object.entries(r.errors))
          state.errors.set(code, (state.errors.get(code) ?? 0) + n);
      }
    });
    worker.on('error', (err) => console.error(`worker ${w}:`, err));
    workers.push(worker);
  }

  // Ramp-up, with progress.
  const bar = new cliProgress.SingleBar(
    { format: 'ramping up |{bar}| {value}/{total} bots in the world | tick p99 {p99} ms | {failed} failed' },
    cliProgress.Presets.shades_classic,
  );
  bar.start(opts.bots, 0, { p99: '-', failed: 0 });
  const rampDeadline = Date.now() + ((opts.bots / opts.ramp) * 3 + 60) * 1000;
  for (;;) {
    await sleep(1000);
    const inWorld = sum(state.inWorld);
    const failed = sum(state.failed);
    const status = await readStatus(base);
    bar.update(inWorld, { p99: status?.p99Ms ?? '-', failed });
    if (inWorld + failed >= opts.bots || Date.now() > rampDeadline) break;
  }
  bar.stop();

  const settle =
    opts.scenario === 'spread'
      ? Math.ceil((opts.spreadRadius / 4 + 20) * (opts.tickMs / 1000))
      : opts.scenario === 'combat'
        ? 10
        : 5;
  console.log(`settling for ${settle} s (${opts.scenario}) ...`);
  await sleep(settle * 1000);

  console.log(`measuring for ${opts.duration} s ...`);
  const before = await readMetrics(base);
  // This process's CPU: all its threads, so the bot workers too.
  const cpuBefore = process.cpuUsage();
  measuring = true;
  let maxTick = 0;
  // The server's RSS sampled every second in the window (/proc; only for a server this bench started).
  let maxRss = server?.memory()?.rss ?? 0;
  const t0 = Date.now();
  let last = await readStatus(base);
  while (Date.now() - t0 < opts.duration * 1000) {
    await sleep(1000);
    last = (await readStatus(base)) ?? last;
    if (last) maxTick = Math.max(maxTick, last.lastMs);
    maxRss = Math.max(maxRss, server?.memory()?.rss ?? 0);
  }
  measuring = false;
  const cpu = process.cpuUsage(cpuBefore);
  const after = await readMetrics(base);
  const seconds = (Date.now() - t0) / 1000;
  const memory = server?.memory();
  report(before, after, seconds, maxTick, last, rssIdle, (cpu.user + cpu.system) / 1e6, {
    maxSampled: Math.max(maxRss, memory?.rss ?? 0),
    peak: memory?.peak ?? 0,
  });
}

function sum(m: Map<number, number>): number {
  let s = 0;
  for (const v of m.values()) s += v;
  return s;
}

function report(
  before: Metrics,
  after: Metrics,
  seconds: number,
  maxSampled: number,
  status: Awaited<ReturnType<typeof readStatus>>,
  rssIdle: number,
  botCpuSeconds: number,
  memory: { maxSampled: number; peak: number },
): void {
  const players = status?.playersOnline ?? sum(state.inWorld);
  const tickName = 'game_tick_duration_seconds';
  const ms = (s: number) => (Number.isFinite(s) ? `${(s * 1000).toFixed(1)} ms` : String(s));
  const rate = (...names: string[]) => (total(after, ...names) - total(before, ...names)) / seconds;
  const msgsOut = rate('game_tick_messages_out_total') || rate('game_ws_messages_out_total');
  const bytesOut = rate('game_tick_bytes_out_total') || rate('game_ws_bytes_out_total');
  const rss = total(after, 'game_process_resident_memory_bytes');
  console.log(
    `\n=== bench:load ${opts.scenario}, ${opts.bots} bots, TICK_MS=${opts.tickMs}, ${seconds.toFixed(0)} s measured ===`,
  );
  console.log(`players online: ${players} (failed bots: ${sum(state.failed)})`);
  console.log(
    `tick (server /status, last 200 ticks): ${status?.p50Ms !== undefined ? `p50 ${status.p50Ms} ms, ` : ''}p99 ${status?.p99Ms ?? '?'} ms; max sampled ${maxSampled} ms`,
  );
  console.log(
    `tick (histogram over the window): p50 <= ${ms(histogramQuantile(before, after, tickName, 0.5))}, p99 <= ${ms(histogramQuantile(before, after, tickName, 0.99))}, mean ${ms(windowMean(before, after, tickName))}`,
  );
  console.log('phase split (mean over the window; p99 from /status when present):');
  for (const p of phases(after)) {
    const mean = windowMean(before, after, 'game_tick_phase_duration_seconds', `phase="${p}"`);
    const p99 = status?.phases?.[p]?.p99Ms;
    console.log(`  ${p.padEnd(14)} mean ${ms(mean)}${p99 !== undefined ? `, p99 ${p99} ms` : ''}`);
  }
  console.log(`messages out: ${msgsOut.toFixed(0)}/s; bytes out: ${(bytesOut / 1e6).toFixed(2)} MB/s`);
  if (rss > 0 && players > 0) {
    console.log(
      `server RSS: ${(rss / 1e6).toFixed(0)} MB at the end of the window = ${(rss / players / 1024).toFixed(1)} KB per player (${((rss - rssIdle) / players / 1024).toFixed(1)} KB per player above idle)`,
    );
  }
  if (memory.peak > 0) {
    console.log(
      `server RSS peak: ${(memory.maxSampled / 1e6).toFixed(0)} MB max sampled in the window (every 1 s); ${(memory.peak / 1e6).toFixed(0)} MB since start (VmHWM, ramp-up included)`,
    );
  }
  let probes = 0;
  for (let i = 0; i < opts.bots; i++) if (isProbe(i, opts.probes)) probes++;
  const serverCpu =
    total(after, 'game_process_cpu_seconds_total') - total(before, 'game_process_cpu_seconds_total');
  const core = (s: number) => `${((s / seconds) * 100).toFixed(0)}% of one core`;
  console.log(
    `CPU over the window: bots used ${core(botCpuSeconds)}; server used ${after.size > 0 ? core(serverCpu) : '?'}`,
  );
  console.log(
    `bots: latency from ${probes} probe bots (--probes=${opts.probes}): move -> own entity moved, ${latency.totalCount} samples: p50 ${latency.getValueAtPercentile(50)} ms, p99 ${latency.getValueAtPercentile(99)} ms, max ${latency.maxValue} ms`,
  );
  if (opts.scenario === 'combat') {
    const per = (k: string) => `${k} ${((combat.get(k) ?? 0) / seconds).toFixed(0)}/s`;
    console.log(`combat bots (every frame decoded): ${COMBAT_COUNTS.map(per).join(', ')}`);
    if (rampErrors.size > 0)
      console.log(`before the window: ${JSON.stringify(Object.fromEntries(rampErrors))}`);
  }
  if (state.errors.size > 0)
    console.log(`errors received by bots: ${JSON.stringify(Object.fromEntries(state.errors))}`);
}

async function shutdown(code: number): Promise<void> {
  for (const w of workers) w.postMessage({ type: 'stop' });
  await sleep(1000);
  await Promise.all(workers.map((w) => w.terminate()));
  await server?.stop();
  process.exit(code);
}

// Stopped by Ctrl-C, `timeout` or a supervisor: the server child goes down with the bench, never left running.
process.on('SIGINT', () => void shutdown(130));
process.on('SIGTERM', () => void shutdown(143));
main().then(
  () => shutdown(0),
  (err: unknown) => {
    console.error(err);
    return shutdown(1);
  },
);
