import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../../lib/config.ts';
import { createLogger } from '../../lib/logger.ts';
import { startWorldServer } from '../../src/world-server.ts';

/**
 * The soak's server: the real world server (startWorldServer, what main.ts runs) in a child process
 * that reports its own figures to the soak driver over IPC every SOAK_SAMPLE_MS: memory, the active
 * handles and timers by type, listeners on `process`, players online, and the duration of every tick
 * since the last report (sampled between ticks, so the driver can take a p99 per minute). On `stop`
 * it shuts down (everyone saved) and exits.
 */

const config = loadConfig(process.env);
const logger = createLogger(config);
const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const srv = await startWorldServer(config, logger, {
  manifestsDir: path.join(repo, 'world', 'assets', 'manifests'),
  publicDir: '/nonexistent/public',
});

export interface SoakSample {
  type: 'sample';
  port: number;
  rss: number;
  heapUsed: number;
  external: number;
  resources: Record<string, number>;
  processListeners: number;
  players: number;
  tick: number;
  tickMs: number[];
}

let lastTick = srv.runtime.tickStatus().number;
let tickMs: number[] = [];
const sampler = setInterval(
  () => {
    const s = srv.runtime.tickStatus();
    if (s.number !== lastTick) {
      lastTick = s.number;
      tickMs.push(s.lastMs);
    }
  },
  Math.max(10, Math.floor(config.tickMs / 4)),
);

function sample(): SoakSample {
  const resources: Record<string, number> = {};
  for (const r of process.getActiveResourcesInfo()) resources[r] = (resources[r] ?? 0) + 1;
  const m = process.memoryUsage();
  const out: SoakSample = {
    type: 'sample',
    port: srv.port,
    rss: m.rss,
    heapUsed: m.heapUsed,
    external: m.external,
    resources,
    processListeners: process.eventNames().reduce((n, e) => n + process.listenerCount(e), 0),
    players: srv.runtime.playersOnline(),
    tick: lastTick,
    tickMs,
  };
  tickMs = [];
  return out;
}

const every = Number(process.env['SOAK_SAMPLE_MS'] ?? 5000);
const send = (m: object) => {
  if (process.connected) process.send?.(m);
};
const reporter = setInterval(() => send(sample()), every);
// Listeners first: the idle sample must already count them (and the IPC pipe they keep open).
process.on('message', async (msg: { type: string }) => {
  if (msg.type === 'sample') send(sample());
  if (msg.type !== 'stop') return;
  clearInterval(reporter);
  clearInterval(sampler);
  await srv.stop();
  process.exit(0);
});
// The driver went away (crashed or killed): stop like on `stop`, never linger.
process.on('disconnect', () => {
  clearInterval(reporter);
  clearInterval(sampler);
  void srv.stop().finally(() => process.exit(1));
});
send({ ...sample(), type: 'ready' });
