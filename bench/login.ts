import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { pack, unpack } from 'msgpackr';
import postgres from 'postgres';
import WebSocket from 'ws';
import { SessionTokens } from '../net/auth/session-tokens.ts';
import { openPglite } from '../persistence/drivers/pglite.ts';
import { openPostgres } from '../persistence/drivers/postgres.ts';
import { migrate } from '../persistence/migrate.ts';
import { SqlPersistence } from '../persistence/sql-port.ts';
import { makeCharacter } from '../tests/helpers/characters.ts';
import { eventOf } from './load/protocol.ts';
import { startServer } from './load/server.ts';

/**
 * Login storm (issue 19): CLIENTS WebSocket clients connect evenly over OVER seconds (what a busy world
 * sees when it restarts and everyone reconnects), each authenticates anonymously and counts as in the
 * world at its first player:sync. Reports the time from the first connect until all are in, the login
 * rate, the queue positions reported, failures and closes. The server is the real entry in a child
 * process, on PGlite (default) or PostgreSQL (DRIVER=postgres: a fresh schema on TEST_DATABASE_URL).
 *
 *   npm run bench:login                                   # 10,000 clients over 40 s, PGlite
 *   DRIVER=postgres npm run bench:login
 *   CLIENTS=2000 OVER=8 npm run bench:login               # a smaller storm
 *   MODE=anonymous npm run bench:login                     # new anonymous players (all at the spawn)
 *
 * MODE=reconnect (default) is the restart case: CLIENTS characters are written to the database first
 * (spread over the world's 1200x1200 tiles, as players are when a server goes down), then each client
 * comes back with its session token and character id. MODE=anonymous has every client sign up
 * anonymously: all new characters stand on the spawn tile, so replication of that crowd (every player
 * sees every other) dominates the server, not the logins.
 *
 * Each client waits for its authResult as long as the server keeps it informed (loginQueue), and gives
 * up after CLIENT_TIMEOUT seconds (default 60) without any answer. The bench fails (exit 1) unless every
 * client is in the world within DEADLINE seconds (default 60) of the first connect.
 *
 * The arrival storm of issue 27 (10,000 new players within 40 s, all at the spawn, all in within 90 s):
 *   MODE=anonymous DEADLINE=90 npm run bench:login
 * During the storm /status is read every 300 ms: the durations of the ticks it saw (p50/p99/max) and
 * the server's resident memory (peak, from /proc) are reported with the rest.
 */

const env = process.env;
const CLIENTS = Number(env['CLIENTS'] ?? 10_000);
const OVER_S = Number(env['OVER'] ?? 40);
const DEADLINE_S = Number(env['DEADLINE'] ?? 60);
const CLIENT_TIMEOUT_S = Number(env['CLIENT_TIMEOUT'] ?? 60);
const DRIVER = env['DRIVER'] === 'postgres' ? 'postgres' : 'pglite';
const MODE = env['MODE'] === 'anonymous' ? 'anonymous' : 'reconnect';
const JWT_SECRET = 'bench-login-secret-0123456789-abcdefghijklmnop';
const PG_URL = env['TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
// SERVER_REPO: the server of another checkout (before/after in one session), driven by this bench.
const REPO = env['SERVER_REPO'] ?? path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

interface Stats {
  inWorld: number;
  failed: number;
  timedOut: number;
  closed: Map<number, number>;
  queued: number;
  maxPosition: number;
  firstConnect: number;
  lastIn: number;
  doneTimes: number[];
}

interface Login {
  authToken: string;
  characterId: string;
}

/** CLIENTS characters spread over the map, with session tokens, written before the server starts. */
async function seed(location: { pgliteDir?: string; schema?: string }): Promise<Login[]> {
  const sql =
    location.pgliteDir !== undefined
      ? await openPglite(location.pgliteDir)
      : await openPostgres({ url: PG_URL, schema: location.schema as string, max: 2 });
  try {
    await migrate(sql);
    const port = new SqlPersistence(sql);
    const tokens = await SessionTokens.fromSecret(JWT_SECRET);
    const logins: Login[] = [];
    for (let i = 0; i < CLIENTS; i += 1000) {
      const chunk = Array.from({ length: Math.min(1000, CLIENTS - i) }, (_, k) => {
        const c = makeCharacter(randomBytes(16).toString('hex'), `Storm${i + k}`);
        c.position = {
          x: 20 + Math.floor(Math.random() * 1160),
          y: 0,
          z: 20 + Math.floor(Math.random() * 1160),
        };
        return { userName: `Guest${i + k}`, character: c };
      });
      await port.createAnonymousLogins(chunk);
      for (const e of chunk) {
        const issued = await tokens.issue(e.character.accountId, true);
        logins.push({ authToken: issued.token, characterId: e.character.id });
      }
    }
    return logins;
  } finally {
    await sql.close();
  }
}

function client(url: string, stats: Stats, open: Set<WebSocket>, login: Login | undefined): Promise<void> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`${url}?encoding=msgpack`, { perMessageDeflate: false });
    open.add(ws);
    let finished = false;
    let authed = false;
    let wasQueued = false;
    const finish = (what: 'in' | 'failed' | 'timeout') => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      if (what === 'in') {
        stats.inWorld++;
        stats.lastIn = performance.now();
        stats.doneTimes.push(stats.lastIn - stats.firstConnect);
      } else if (what === 'failed') stats.failed++;
      else stats.timedOut++;
      resolve();
    };
    // Any answer (a queue position) restarts the wait: a queued client is not timed out.
    let timer = setTimeout(() => finish('timeout'), CLIENT_TIMEOUT_S * 1000);
    const alive = () => {
      clearTimeout(timer);
      timer = setTimeout(() => finish('timeout'), CLIENT_TIMEOUT_S * 1000);
    };
    ws.on('open', () => ws.send(pack(['authenticate', login ?? {}])));
    ws.on('message', (data: Buffer, binary) => {
      if (finished || !binary) return;
      const ev = eventOf(data);
      if (ev === 'loginQueue') {
        if (!wasQueued) stats.queued++;
        wasQueued = true;
        const pos = (unpack(data) as [string, { position: number }])[1].position;
        if (pos > stats.maxPosition) stats.maxPosition = pos;
        alive();
      } else if (ev === 'authResult') {
        authed = true;
        alive();
      } else if (ev === 'player:sync' && authed) {
        finish('in');
      }
    });
    ws.on('close', (code) => {
      open.delete(ws);
      if (!finished) stats.closed.set(code, (stats.closed.get(code) ?? 0) + 1);
      finish('failed');
    });
    ws.on('error', () => {});
  });
}

/**
 * The server during the storm: every tick /status reports (its last duration, polled every 300 ms, so
 * most ticks of 600 ms are seen once) and its resident memory.
 */
function watchServer(base: string, pid: number) {
  const ticks = new Map<number, number>();
  let peakRssMb = 0;
  let statusP99 = 0;
  let stopped = false;
  const rssMb = () => {
    try {
      const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      return m ? Number(m[1]) / 1024 : 0;
    } catch {
      return 0;
    }
  };
  const poll = async () => {
    while (!stopped) {
      try {
        const res = await fetch(`${base}/status`, { signal: AbortSignal.timeout(3000) });
        const body = (await res.json()) as { tick: { number: number; lastMs: number; p99Ms: number } };
        if (body.tick.number > 0) ticks.set(body.tick.number, body.tick.lastMs);
        statusP99 = body.tick.p99Ms;
      } catch {
        // busy: the next poll
      }
      peakRssMb = Math.max(peakRssMb, rssMb());
      await new Promise((r) => setTimeout(r, 300));
    }
  };
  const running = poll();
  return {
    async stop() {
      stopped = true;
      await running;
      const ms = [...ticks.values()].sort((a, b) => a - b);
      const at = (q: number) => Math.round(ms[Math.min(ms.length - 1, Math.floor(q * ms.length))] ?? 0);
      return {
        ticksSeen: ms.length,
        tickMs: { p50: at(0.5), p99: at(0.99), max: at(1), serverP99Last200: Math.round(statusP99) },
        serverPeakRssMb: Math.round(peakRssMb),
      };
    },
  };
}

async function main(): Promise<void> {
  let schema: string | undefined;
  if (DRIVER === 'postgres') {
    schema = `bench_login_${randomBytes(5).toString('hex')}`;
    const admin = postgres(PG_URL, { max: 1, onnotice: () => {} });
    await admin.unsafe(`CREATE SCHEMA ${schema}`);
    await admin.end();
    const u = new URL(PG_URL);
    u.searchParams.set('search_path', schema);
    process.env['LOAD_DATABASE_URL'] = u.toString();
  }
  let pgliteDir: string | undefined;
  if (DRIVER === 'pglite') {
    pgliteDir = mkdtempSync(path.join(os.tmpdir(), 'bench-login-db-'));
    process.env['PGLITE_DATA_DIR'] = pgliteDir;
  }
  process.env['JWT_SECRET'] = JWT_SECRET;
  let logins: Login[] = [];
  if (MODE === 'reconnect') {
    const t0 = performance.now();
    logins = await seed(pgliteDir !== undefined ? { pgliteDir } : { schema: schema as string });
    console.log(`seeded ${logins.length} characters in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  }
  // New players keep the server's own cap on sockets that have not sent authenticate (1,000), as on
  // the internet; the restart case lifts it as bench:load does (every bot comes from 127.0.0.1).
  const server = await startServer(
    REPO,
    600,
    MODE === 'anonymous' ? { WS_MAX_UNAUTHENTICATED: env['WS_MAX_UNAUTHENTICATED'] ?? '1000' } : {},
  );
  const stats: Stats = {
    inWorld: 0,
    failed: 0,
    timedOut: 0,
    closed: new Map(),
    queued: 0,
    maxPosition: 0,
    firstConnect: performance.now(),
    lastIn: 0,
    doneTimes: [],
  };
  const open = new Set<WebSocket>();
  const all: Promise<void>[] = [];
  const watch = watchServer(server.base, server.pid);
  console.log(`login storm: ${CLIENTS} clients over ${OVER_S} s, ${DRIVER}, ${MODE}`);
  const gap = (OVER_S * 1000) / CLIENTS;
  stats.firstConnect = performance.now();
  const progress = setInterval(() => {
    const t = ((performance.now() - stats.firstConnect) / 1000).toFixed(0);
    console.log(
      `t=${t}s started=${all.length} in=${stats.inWorld} failed=${stats.failed} timedOut=${stats.timedOut} queued=${stats.queued} maxPos=${stats.maxPosition}`,
    );
  }, 5000);
  for (let i = 0; i < CLIENTS; i++) {
    const due = stats.firstConnect + i * gap;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    all.push(client(server.wsUrl, stats, open, logins[i]));
  }
  await Promise.all(all);
  clearInterval(progress);
  const seen = await watch.stop();
  const totalS = (stats.lastIn - stats.firstConnect) / 1000;
  const sorted = stats.doneTimes.sort((a, b) => a - b);
  const pct = (p: number) => ((sorted[Math.floor((sorted.length - 1) * p)] ?? 0) / 1000).toFixed(1);
  const result = {
    driver: DRIVER,
    mode: MODE,
    clients: CLIENTS,
    connectOverS: OVER_S,
    inWorld: stats.inWorld,
    failed: stats.failed,
    timedOut: stats.timedOut,
    closeCodes: Object.fromEntries(stats.closed),
    queuedClients: stats.queued,
    maxQueuePositionSeen: stats.maxPosition,
    allInAfterS: Number(totalS.toFixed(1)),
    loginsPerSecond: Number((stats.inWorld / totalS).toFixed(0)),
    inWorldAfterS: { p50: pct(0.5), p90: pct(0.9), p99: pct(0.99), max: pct(1) },
    ...seen,
  };
  console.log(JSON.stringify(result, null, 2));
  for (const ws of open) ws.terminate();
  await server.stop();
  if (schema) {
    const admin = postgres(PG_URL, { max: 1, onnotice: () => {} });
    await admin.unsafe(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await admin.end();
  }
  if (pgliteDir) rmSync(pgliteDir, { recursive: true, force: true });
  const ok = stats.inWorld === CLIENTS && totalS <= DEADLINE_S;
  console.log(ok ? `PASS: all ${CLIENTS} in the world within ${DEADLINE_S} s` : 'FAIL');
  process.exit(ok ? 0 : 1);
}

await main();
