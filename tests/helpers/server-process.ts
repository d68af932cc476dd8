import { type ChildProcess, spawn } from 'node:child_process';
import net from 'node:net';
import { inject } from 'vitest';
import { REPO_ROOT } from '../../src/server.ts';

/**
 * The real server (src/main.ts) as a child process, for fault tests that SIGKILL it. Spawned as
 * `node <build>/src/main.js`, compiled once by the project's global setup (tests/helpers/
 * compiled-server.ts), or else `node --import tsx src/main.ts`; never through the
 * `node_modules/.bin/tsx` wrapper, which runs the server in a grandchild, so that a SIGKILL of the
 * wrapper would leave the real server running on the data.
 */

/** A free TCP port on 127.0.0.1 (bound to port 0, then released). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

export interface ServerProcess {
  port: number;
  url: string;
  wsUrl: string;
  child: ChildProcess;
  /** What the child wrote to stdout/stderr (for failure messages). */
  output(): string;
  /** SIGKILL and wait for the exit. */
  kill(): Promise<void>;
  /** SIGTERM (graceful shutdown: everyone saved) and wait for the exit; SIGKILL after `timeoutMs`. */
  stop(timeoutMs?: number): Promise<number | null>;
}

/**
 * Starts the server with only `env` (plus PATH and HOME) and waits until /health answers. The port is
 * taken from `env.PORT`. Rejects (after killing the child) if it exits or does not answer in time.
 */
export async function startServerProcess(
  env: Record<string, string>,
  timeoutMs = 60_000,
): Promise<ServerProcess> {
  const port = Number(env['PORT']);
  const compiled = inject('compiledServer');
  const child = spawn(process.execPath, compiled ? [compiled] : ['--import', 'tsx', 'src/main.ts'], {
    cwd: REPO_ROOT,
    env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '/tmp', METRICS_PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const keep = (d: Buffer) => {
    out = (out + d.toString()).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let gone = false;
  void exited.then(() => {
    gone = true;
  });
  const url = `http://127.0.0.1:${port}`;
  const kill = async () => {
    if (!gone) child.kill('SIGKILL');
    await exited;
  };
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (gone) throw new Error(`server exited during start-up:\n${out}`);
    if (Date.now() > deadline) {
      await kill();
      throw new Error(`server did not answer /health within ${timeoutMs} ms:\n${out}`);
    }
    const ok = await fetch(`${url}/health`, { signal: AbortSignal.timeout(1000) }).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    port,
    url,
    wsUrl: `ws://127.0.0.1:${port}/ws`,
    child,
    output: () => out,
    kill,
    stop: async (stopMs = 20_000) => {
      if (!gone) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), stopMs);
      try {
        return await exited;
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
