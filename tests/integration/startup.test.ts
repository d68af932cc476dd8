import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../src/server.ts';

/** Start-up of the real entry point (src/main.ts) in a child process with a controlled environment. */

const TSX = path.join(REPO_ROOT, 'node_modules', '.bin', 'tsx');
const PROD: Record<string, string> = {
  NODE_ENV: 'production',
  DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/test',
  JWT_SECRET: 'startup-test-secret-that-is-long-enough-000',
  ADMIN_CODE: 'startup-admin-code',
  PUBLIC_IDP_APP_ID: 'idp-app',
  IDP_APP_ID: 'idp-app',
  IDP_APP_SECRET: 'startup-idp-secret',
  IDP_JWKS_URL: 'https://auth.privy.io/api/v1/apps/idp-app/jwks.json',
  HOST: '127.0.0.1',
  PORT: '0',
};

function launch(env: Record<string, string>): ChildProcess {
  // Only what the test gives: nothing from the developer's or CI's environment leaks in.
  return spawn(TSX, ['src/main.ts'], {
    cwd: REPO_ROOT,
    env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '/tmp', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group: tsx runs the server in a child of its own, and a kill must reach both.
    detached: true,
  });
}

function run(env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = launch(env);
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d) => (stdout += d));
    child.stderr!.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`still running after 20 s (it should have refused to start):\n${stdout}`));
    }, 20_000);
    // 'close', not 'exit': the process may be gone before its last stderr bytes are read.
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

const without = (key: string) => Object.fromEntries(Object.entries(PROD).filter(([k]) => k !== key));

describe.concurrent('production start-up refuses unsafe configuration, naming the problem', () => {
  it.each(['DATABASE_URL', 'JWT_SECRET', 'ADMIN_CODE', 'PUBLIC_IDP_APP_ID', 'IDP_APP_ID', 'IDP_APP_SECRET'])(
    'missing %s: exit 1 with a message naming it, before listening',
    async (key) => {
      const r = await run(without(key));
      expect(r.code).toBe(1);
      // \b: PUBLIC_IDP_APP_ID's message must not count as IDP_APP_ID's.
      expect(r.stderr).toMatch(new RegExp(`\\b${key} is required in production`));
      expect(r.stdout).not.toContain('listening');
    },
  );

  it('IDP_APP_ID different from PUBLIC_IDP_APP_ID', async () => {
    const r = await run({ ...PROD, IDP_APP_ID: 'other-app' });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('IDP_APP_ID must equal PUBLIC_IDP_APP_ID');
  });

  it('DISABLE_RATE_LIMIT=true', async () => {
    const r = await run({ ...PROD, DISABLE_RATE_LIMIT: 'true' });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('DISABLE_RATE_LIMIT');
  });

  it('the refusal message never echoes a secret value', async () => {
    const r = await run({ ...PROD, DISABLE_RATE_LIMIT: 'true', IDP_APP_ID: 'x' });
    for (const secret of [PROD.JWT_SECRET, PROD.ADMIN_CODE, PROD.IDP_APP_SECRET]) {
      expect(r.stderr + r.stdout).not.toContain(secret);
    }
  });
});

describe('a complete production configuration', () => {
  it('starts, serves /health, and exits 0 on SIGTERM after closing its sockets', async () => {
    const child = launch(PROD);
    try {
      let out = '';
      const port = await new Promise<number>((resolve, reject) => {
        // A liveness bound, not a performance check.
        const timer = setTimeout(() => reject(new Error(`no "ready" line in 60 s:\n${out}`)), 60_000);
        child.stdout!.on('data', (d) => {
          out += d;
          const m = /"port":(\d+),"msg":"ready"/.exec(out);
          if (m) {
            clearTimeout(timer);
            resolve(Number(m[1]));
          }
        });
        child.on('exit', (code) => reject(new Error(`exited ${code} before ready:\n${out}`)));
      });
      const health = await fetch(`http://127.0.0.1:${port}/health`);
      expect(health.status).toBe(200);
      expect(((await health.json()) as { status: string }).status).toBe('ok');
      const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(out).toContain('"msg":"server stopped"');
      await expect(fetch(`http://127.0.0.1:${port}/health`)).rejects.toThrow();
    } finally {
      // Whatever failed, the server does not outlive the test (it would hold the default METRICS_PORT).
      try {
        process.kill(-(child.pid as number), 'SIGKILL');
      } catch {
        // the group is gone already
      }
    }
  }, 90_000);
});
