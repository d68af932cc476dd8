import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

// A separate process: a rejection left unhandled inside the test runner would fail the run itself.
function runScript(body: string): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', body], {
    cwd: root,
    encoding: 'utf8',
    timeout: 30_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('a promise rejection nobody handles', () => {
  it('is logged with its error, and the process goes on', () => {
    const r = runScript(`
      import { createLogger } from './lib/logger.ts';
      import { logUnhandledRejections } from './src/process-faults.ts';
      logUnhandledRejections(createLogger({ logLevel: 'info', env: 'development' }));
      Promise.reject(new Error('read ECONNRESET'));
      setTimeout(() => { console.log('still running'); process.exit(0); }, 200);
    `);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const lines = r.stdout.trim().split('\n');
    const logged = JSON.parse(lines[0] ?? '{}') as { level: number; msg: string; err?: { message: string } };
    expect(logged.msg).toMatch(/unhandled promise rejection/);
    expect(logged.level).toBe(50);
    expect(logged.err?.message).toBe('read ECONNRESET');
    expect(lines.at(-1)).toBe('still running');
  });

  it('ends a process that does not log them (what the server did before)', () => {
    const r = runScript(`
      Promise.reject(new Error('read ECONNRESET'));
      setTimeout(() => { console.log('still running'); process.exit(0); }, 200);
    `);
    expect(r.status).not.toBe(0);
    expect(r.stdout).not.toContain('still running');
  });
});
