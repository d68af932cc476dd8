import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { chooseAllocator } from '../../src/allocator.mjs';

/**
 * The server under test as a child process, started as `npm start` starts it: `node src/start-entry.mjs`
 * in the server's checkout prints the command line (the compiled entry `dist/src/main.js`, built when a
 * source changed, or the sources through tsx with SERVER_FROM_SOURCE=1 or when no build can be had; and
 * `LD_PRELOAD` for jemalloc when installed, unless SERVER_ALLOCATOR=system), and node is spawned with it
 * directly (no npm or env in between: the pid is the server's, for /proc). A --serverRoot checkout without
 * src/start-entry.mjs (older code) runs `--import tsx src/main.ts`; one whose start-entry chooses no
 * allocator gets this checkout's choice, so that a before/after pair runs on the same malloc.
 * With a free port, rate limiting off and a temporary world directory holding a copy of the project's
 * manifests (SKIP_MANIFESTS: no asset host needed) and the embedded database, so the bench never touches
 * a real world. SERVER_NODE_OPTIONS adds node flags (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`).
 */

const FROM_SOURCE = ['--import', 'tsx', 'src/main.ts'];

/** What `npm start` runs in `root`: the variables it sets and node's arguments. */
function serverCommand(
  root: string,
  env: NodeJS.ProcessEnv,
): { set: Record<string, string>; args: string[] } {
  const ownChoice = () =>
    chooseAllocator({ env, platform: process.platform, arch: process.arch, exists: fs.existsSync });
  const entry = path.join(root, 'src', 'start-entry.mjs');
  if (!fs.existsSync(entry)) return { set: ownChoice().set, args: FROM_SOURCE };
  // Its build output and warnings go to stderr, as under npm start.
  const r = spawnSync(process.execPath, [entry], {
    cwd: root,
    env,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (r.status !== 0) throw new Error(`${entry} exited with ${r.status ?? r.signal}`);
  const words = r.stdout
    .trim()
    .split(/\s+/)
    .filter((w) => w !== '');
  const set: Record<string, string> = {};
  let i = 0;
  for (; i < words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[i] as string); i++) {
    const w = words[i] as string;
    set[w.slice(0, w.indexOf('='))] = w.slice(w.indexOf('=') + 1);
  }
  // `[VAR=value ...] node args` (for `exec env $(...)`), or only node's arguments (older start-entry,
  // `exec node $(...)`, which chose no allocator).
  if (words[i] === 'node') return { set, args: words.slice(i + 1) };
  const choice = ownChoice();
  if (choice.warning) console.error(choice.warning);
  return { set: { ...choice.set, ...set }, args: words };
}

/** The bench server's METRICS_TOKEN (a local throwaway, not a secret of any deployment). */
export const BENCH_METRICS_TOKEN = 'bench-load-metrics-token';

export interface ServerProcess {
  base: string;
  wsUrl: string;
  pid: number;
  /** The server's resident memory now and its peak so far (VmRSS, VmHWM of /proc/<pid>/status), bytes; undefined without /proc. */
  memory(): { rss: number; peak: number } | undefined;
  stop(): Promise<void>;
}

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

export async function startServer(
  repoRoot: string,
  tickMs: number,
  /** Added last (bench:worlds:e2e: WORLD_ID, NATS_URL, DATABASE_URL...). */
  extraEnv: Record<string, string> = {},
  /** Changes the world directory's copy of the manifests before the server reads them (bench:combat). */
  prepareWorld?: (worldDir: string) => void,
  /** Where the manifests come from (another checkout's world, for a pair on the same content). */
  contentRoot: string = repoRoot,
): Promise<ServerProcess> {
  const port = await freePort();
  const world = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-load-world-'));
  fs.cpSync(path.join(contentRoot, 'world', 'assets', 'manifests'), path.join(world, 'assets', 'manifests'), {
    recursive: true,
  });
  prepareWorld?.(world);
  const command = serverCommand(repoRoot, { ...process.env, ...extraEnv });
  const allocator = command.set['LD_PRELOAD']?.includes('jemalloc') ? 'jemalloc' : 'system';
  console.log(
    `server: node ${command.args.join(' ')} on port ${port} (allocator: ${allocator}${command.set['LD_PRELOAD'] ? `, LD_PRELOAD=${command.set['LD_PRELOAD']}` : ''})`,
  );
  const nodeFlags = (process.env.SERVER_NODE_OPTIONS ?? '').split(/\s+/).filter((f) => f !== '');
  const child: ChildProcess = spawn(process.execPath, [...nodeFlags, ...command.args], {
    cwd: repoRoot,
    env: {
      ...process.env,
      ...command.set,
      PORT: String(port),
      DISABLE_RATE_LIMIT: 'true',
      // Every bot connects from 127.0.0.1: the per-address and unauthenticated caps are for the internet.
      WS_MAX_CONNECTIONS_PER_ADDRESS: '100000',
      WS_MAX_UNAUTHENTICATED: '100000',
      // /metrics on the public port too (Bearer), so the probe reads it without a second listener.
      METRICS_TOKEN: BENCH_METRICS_TOKEN,
      METRICS_PORT: 'off',
      WORLD: world,
      SKIP_MANIFESTS: 'true',
      SKIP_ASSETS: 'true',
      TICK_MS: String(tickMs),
      NODE_ENV: 'development',
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
      DATABASE_URL: process.env.LOAD_DATABASE_URL ?? '',
      JWT_SECRET: process.env.JWT_SECRET ?? 'bench-load-secret-0123456789-abcdefghijklmnop',
      ...extraEnv,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with code ${child.exitCode} during start-up`);
    try {
      const res = await fetch(`${base}/health`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error('server did not become healthy within 120 s');
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    base,
    wsUrl: `ws://127.0.0.1:${port}/ws`,
    pid: child.pid ?? -1,
    memory: () => {
      try {
        const status = fs.readFileSync(`/proc/${child.pid}/status`, 'utf8');
        const kb = (key: string) =>
          Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * 1024;
        const rss = kb('VmRSS');
        const peak = kb('VmHWM');
        return Number.isFinite(rss) && Number.isFinite(peak) ? { rss, peak } : undefined;
      } catch {
        return undefined;
      }
    },
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        const kill = setTimeout(() => child.kill('SIGKILL'), 60_000);
        child.once('exit', () => {
          clearTimeout(kill);
          fs.rmSync(world, { recursive: true, force: true });
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}
