import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../src/server.ts';
import { GameClient, type Login } from '../crash/game-client.ts';
import { freePort } from '../helpers/server-process.ts';

/**
 * Issue 19: Ctrl-C never loses the last save. The real server is started the way a user starts it,
 * `npm start`, in its own process group; a player walks, and the whole group gets SIGINT (what Ctrl-C
 * in a terminal does) or SIGTERM (what a supervisor or container runtime does): npm and node both get
 * it, and npm relays it to node again. After a restart the player must stand where it walked to.
 * Interval saves are off (SAVE_INTERVAL=600), so only the shutdown's save can have stored the tile; the
 * walk alternates between two tiles, so a lost save shows as the previous run's tile. The race is
 * real, so each signal is repeated (SIGNAL_RUNS per signal, default 3).
 */

const RUNS = Number(process.env['SIGNAL_RUNS'] ?? 3);
const JWT_SECRET = randomBytes(32).toString('hex');
const ADMIN_CODE = `sig-admin-${randomBytes(6).toString('hex')}`;
const TILES: [number, number][] = [
  [610, 600],
  [600, 600],
];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface NpmServer {
  child: ChildProcess;
  pgid: number;
  wsUrl: string;
  output(): string;
  exited: Promise<number | null>;
}

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'signal-test-'));
let running: NpmServer | undefined;
let client: GameClient | undefined;

/** Whether any process of the group is still alive. */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitGroupGone(pgid: number, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (!groupAlive(pgid)) return true;
    await sleep(50);
  }
  return !groupAlive(pgid);
}

async function killGroup(s: NpmServer): Promise<void> {
  if (groupAlive(s.pgid)) process.kill(-s.pgid, 'SIGKILL');
  await waitGroupGone(s.pgid, 10_000);
}

afterEach(async () => {
  client?.close();
  client = undefined;
  if (running) await killGroup(running);
  running = undefined;
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

async function startNpm(): Promise<NpmServer> {
  const port = await freePort();
  const child = spawn('npm', ['start', '--silent'], {
    cwd: REPO_ROOT,
    detached: true, // its own process group, as a terminal's foreground job
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      PATH: process.env['PATH'] ?? '',
      HOME: process.env['HOME'] ?? '/tmp',
      PGLITE_DATA_DIR: dataDir,
      PORT: String(port),
      // Its own free port: the default 127.0.0.1:9464 may be taken by another server on the machine.
      METRICS_PORT: '0',
      HOST: '127.0.0.1',
      NODE_ENV: 'test',
      SKIP_MANIFESTS: 'true',
      SKIP_ASSETS: 'true',
      TICK_MS: '50',
      SAVE_INTERVAL: '600',
      JWT_SECRET,
      ADMIN_CODE,
      DISABLE_RATE_LIMIT: 'true',
      LOG_LEVEL: 'info',
      // npm start's prestart would build the web client into the repository's public/: not needed here.
      SKIP_CLIENT_BUILD: '1',
    },
  });
  let out = '';
  const keep = (d: Buffer) => {
    out = (out + d.toString()).slice(-30_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const s: NpmServer = {
    child,
    pgid: child.pid as number,
    wsUrl: `ws://127.0.0.1:${port}/ws`,
    output: () => out,
    exited,
  };
  running = s;
  // A liveness bound, not a performance check: a cold PGlite start on a busy 2-core machine is slow.
  const until = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`npm start exited during start-up:\n${out}`);
    if (Date.now() > until) throw new Error(`no /health within 180 s:\n${out}`);
    const ok = await fetch(`http://127.0.0.1:${port}/health`, { signal: AbortSignal.timeout(1000) }).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return s;
    await sleep(100);
  }
}

async function walk(c: GameClient, to: [number, number]): Promise<void> {
  if (c.tile?.x === to[0] && c.tile?.z === to[1]) return;
  const arrived = c.waitFor(
    (m) => m.event === 'world:update' && c.tile?.x === to[0] && c.tile?.z === to[1],
    30_000,
  );
  c.send('player:move', { x: to[0], z: to[1] });
  await arrived;
}

/** Signals the whole group and waits until every process of it is gone; returns the server's log. */
async function signalGroup(s: NpmServer, signal: NodeJS.Signals): Promise<string> {
  process.kill(-s.pgid, signal);
  await s.exited;
  const gone = await waitGroupGone(s.pgid, 30_000);
  expect(gone, `the server outlived npm:\n${s.output()}`).toBe(true);
  running = undefined;
  return s.output();
}

describe('npm start, then a signal to the whole process group', () => {
  it(
    `keeps the last position over ${RUNS} SIGINT and ${RUNS} SIGTERM runs`,
    async () => {
      // First start: a new anonymous player, put on the walkable strip between the two tiles.
      let srv = await startNpm();
      client = await GameClient.connect(srv.wsUrl);
      expect(await client.command(`/admin ${ADMIN_CODE}`)).not.toMatch(/only|forbidden/i);
      expect(await client.command(`/tp ${TILES[1]![0]} ${TILES[1]![1]}`)).toMatch(/^Teleported/);
      let login: Login = client.login;
      const losses: string[] = [];
      const signals: NodeJS.Signals[] = [
        ...Array.from({ length: RUNS }, () => 'SIGINT' as const),
        ...Array.from({ length: RUNS }, () => 'SIGTERM' as const),
      ];
      for (const [i, signal] of signals.entries()) {
        const to = TILES[i % 2]!;
        await walk(client, to);
        // Straight away: the position exists only in memory (no interval save for 600 s).
        const log = await signalGroup(srv, signal);
        client.close();
        expect(log, `run ${i + 1} (${signal}) did not finish its shutdown:\n${log}`).toContain(
          '"code":0,"msg":"bye"',
        );
        expect(log).not.toContain('second signal');
        srv = await startNpm();
        client = await GameClient.connect(srv.wsUrl, login);
        login = client.login;
        const back = `${client.tile?.x},${client.tile?.z}`;
        if (back !== `${to[0]},${to[1]}`)
          losses.push(`run ${i + 1} (${signal}): back at ${back}, walked to ${to}`);
      }
      expect(losses).toEqual([]);
    },
    RUNS * 2 * 60_000 + 180_000,
  );
});
