import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/**
 * The server under test as a child process: the real entry (`tsx src/main.ts`, what `npm start` runs)
 * with a free port, rate limiting off and a temporary world directory holding a copy of the project's
 * manifests (SKIP_MANIFESTS: no asset host needed) and the embedded database, so the bench never touches
 * a real world. SERVER_NODE_OPTIONS adds node flags (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`).
 */

const ENTRY = 'src/main.ts';

/** The bench server's METRICS_TOKEN (a local throwaway, not a secret of any deployment). */
export const BENCH_METRICS_TOKEN = 'bench-load-metrics-token';

export interface ServerProcess {
  base: string;
  wsUrl: string;
  pid: number;
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
  console.log(`server: ${ENTRY} on port ${port}`);
  const nodeFlags = (process.env.SERVER_NODE_OPTIONS ?? '').split(/\s+/).filter((f) => f !== '');
  const child: ChildProcess = spawn(process.execPath, [...nodeFlags, '--import', 'tsx', ENTRY], {
    cwd: repoRoot,
    env: {
      ...process.env,
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
