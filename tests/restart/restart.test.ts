import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresAvailable, TEST_PG_URL } from '../helpers/db.ts';
import { pgliteServerDb, postgresServerDb, type ServerDb } from '../helpers/server-db.ts';
import { freePort, type ServerProcess, startServerProcess } from '../helpers/server-process.ts';
import { checkScene, checkTables } from './check.ts';
import type { GameClient } from './client.ts';
import { playScene, type Scene } from './scene.ts';

/**
 * Everything a character earns survives a restart, through the real save path: the real server
 * (src/main.ts in a child process) changes every record kind through commands (tests/restart/scene.ts),
 * its save scheduler writes them, and a new server process on the same database gives them back
 * (tests/restart/check.ts). Three ways the server goes down, on one database, each with its own
 * characters, four server starts in all:
 *
 * 1. clean stop: SIGTERM (the shutdown of src/shutdown.ts) at the default TICK_MS and SAVE_INTERVAL,
 *    before any interval save can have run, so only the shutdown's save can have written the state;
 * 2. SIGKILL after an interval save (SAVE_INTERVAL 1 s): only the interval save can have;
 * 3. an interval save, then a clean stop: the shutdown's save after the interval's leaves it whole.
 *
 * Then the feature tables are read directly for what each scene left there.
 */

const ADMIN_CODE = `restart-admin-${randomBytes(6).toString('hex')}`;
/** Fixed for the file: session tokens must outlive restarts. */
const JWT_SECRET = randomBytes(32).toString('hex');
const SHORT = { TICK_MS: '50', SAVE_INTERVAL: '1' };
/** The default settings (lib/config.ts): nothing set but the log level, to read when the database opened. */
const DEFAULTS = { LOG_LEVEL: 'info' };
const DEFAULT_SAVE_INTERVAL_MS = 60_000;
/** SAVE_INTERVAL (1 s) + a tick + time for the batch write to land on a busy 2-core machine. */
const SETTLE_MS = 3000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** When the server's log says its database opened (epoch ms): the save scheduler starts right after. */
function databaseOpenedAt(log: string): number {
  for (const line of log.split('\n')) {
    if (!line.startsWith('{')) continue;
    // pino's isoTime: an ISO 8601 string.
    const entry = JSON.parse(line) as { msg?: string; time?: string };
    if ((entry.msg === 'database opened' || entry.msg === 'database connected') && entry.time)
      return Date.parse(entry.time);
  }
  throw new Error(`no 'database opened' line with its time in the log:\n${log}`);
}

function restartSuite(makeDb: () => Promise<ServerDb>): void {
  let db: ServerDb | undefined;
  let srv: ServerProcess | undefined;
  const opened: GameClient[] = [];
  const scenes: Scene[] = [];
  const tag = (mode: string) => `${mode}${randomBytes(2).toString('hex')}`;

  const closeClients = () => {
    for (const c of opened.splice(0)) c.close();
  };
  const boot = async (settings: Record<string, string>) => {
    if (!db) throw new Error('no database');
    srv = await startServerProcess({
      ...db.env,
      PORT: String(await freePort()),
      HOST: '127.0.0.1',
      NODE_ENV: 'test',
      WORLD: 'world',
      SKIP_MANIFESTS: 'true',
      SKIP_ASSETS: 'true',
      ADMIN_CODE,
      JWT_SECRET,
      DISABLE_RATE_LIMIT: 'true',
      LOG_LEVEL: 'warn',
      ...settings,
    });
    return srv;
  };
  /** SIGTERM: the graceful shutdown must finish with exit code 0. */
  const cleanStop = async (s: ServerProcess) => {
    expect(await s.stop(), `graceful shutdown:\n${s.output()}`).toBe(0);
    srv = undefined;
    closeClients();
  };
  const kill = async (s: ServerProcess) => {
    await s.kill();
    srv = undefined;
    closeClients();
  };

  beforeAll(async () => {
    db = await makeDb();
  });
  afterAll(async () => {
    closeClients();
    await srv?.kill();
    await db?.destroy();
  });

  it('clean stop (SIGTERM) at the default TICK_MS and SAVE_INTERVAL: every kind is back', async () => {
    const s = await boot(DEFAULTS);
    const openedAt = databaseOpenedAt(s.output());
    const scene = await playScene(s.url, s.wsUrl, tag('b'), ADMIN_CODE, opened);
    // Stopped before the first interval save could run (its timer starts after the database opened):
    // what comes back was written by the shutdown alone.
    const upMs = Date.now() - openedAt;
    expect(upMs, 'the scene outlasted SAVE_INTERVAL: an interval save may have written it').toBeLessThan(
      DEFAULT_SAVE_INTERVAL_MS,
    );
    await cleanStop(s);
    scenes.push(scene);
    const next = await boot(SHORT);
    await checkScene(next.url, next.wsUrl, scene, 'clean stop', opened);
    closeClients();
  }, 240_000);

  it('SIGKILL after an interval save: every kind is back', async () => {
    const s = srv ?? (await boot(SHORT));
    const scene = await playScene(s.url, s.wsUrl, tag('k'), ADMIN_CODE, opened);
    await sleep(SETTLE_MS);
    await kill(s);
    scenes.push(scene);
    const next = await boot(SHORT);
    await checkScene(next.url, next.wsUrl, scene, 'SIGKILL after an interval save', opened);
    closeClients();
  }, 180_000);

  it('an interval save, then a clean stop: every kind is back', async () => {
    const s = srv ?? (await boot(SHORT));
    const scene = await playScene(s.url, s.wsUrl, tag('i'), ADMIN_CODE, opened);
    await sleep(SETTLE_MS);
    await cleanStop(s);
    scenes.push(scene);
    const next = await boot(SHORT);
    await checkScene(next.url, next.wsUrl, scene, 'interval save, then a clean stop', opened);
    await cleanStop(next);
  }, 180_000);

  it('the feature tables hold what each scene left (npcKills, characterQuests, prayerPoints, homeTeleport)', async () => {
    if (srv) await cleanStop(srv);
    expect(scenes).toHaveLength(3);
    const sql = await (db as ServerDb).open();
    try {
      await checkTables(sql, scenes);
    } finally {
      await sql.close();
    }
  }, 60_000);
}

describe('every record kind survives a restart through the real save path: PGlite', () => {
  restartSuite(async () => pgliteServerDb('restart'));
});

const pgUp = await postgresAvailable();
if (pgUp) {
  describe('every record kind survives a restart through the real save path: PostgreSQL', () => {
    restartSuite(() => postgresServerDb('restart'));
  });
} else if (process.env['CI'] === 'true') {
  describe('every record kind survives a restart: PostgreSQL', () => {
    it('needs PostgreSQL in CI', () => {
      throw new Error(`PostgreSQL is required in CI and does not answer at ${TEST_PG_URL}`);
    });
  });
} else {
  // Outside CI without PostgreSQL only (CI fails above): a user's machine need not run a PostgreSQL server.
  console.warn(`SKIPPING PostgreSQL restart tests: nothing answers at ${TEST_PG_URL}`);
  describe.skip(`every record kind survives a restart: PostgreSQL (not answering at ${TEST_PG_URL})`, () => {
    it('skipped', () => {});
  });
}
