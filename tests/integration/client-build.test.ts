import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../lib/repo-root.ts';

/**
 * `npm start` (prestart) and `npm install` (prepare) run client/ensure-build.mjs: it builds the web client
 * when the build is missing or older than client/ and the manifests, and leaves a fresh build alone.
 */

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const run = (out: string, env: Record<string, string> = {}) =>
  execFileSync(process.execPath, [path.join(REPO_ROOT, 'client', 'ensure-build.mjs'), '--out', out], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    env: { ...process.env, ...env },
  });

describe('client/ensure-build.mjs', () => {
  it('is what npm start and npm install run', () => {
    const scripts = (
      JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
        scripts: Record<string, string>;
      }
    ).scripts;
    expect(scripts['prestart']).toBe('node client/ensure-build.mjs');
    expect(scripts['prepare']).toBe('node client/ensure-build.mjs');
  });

  it('builds a missing client, leaves a fresh one, rebuilds one older than its sources', () => {
    const out = path.join(mkdtempSync(path.join(os.tmpdir(), 'client-build-')), 'public');
    dirs.push(path.dirname(out));
    expect(run(out)).toMatch(/client: built into/);
    const index = path.join(out, 'index.html');
    expect(readFileSync(index, 'utf8')).toContain('<canvas id="view"');

    expect(run(out)).toMatch(/is up to date/);

    // A build from before the sources last changed is made again.
    utimesSync(index, new Date('2001-01-01'), new Date('2001-01-01'));
    expect(run(out)).toMatch(/client: built into/);
    expect(statSync(index).mtimeMs).toBeGreaterThan(new Date('2001-01-02').getTime());
  });

  it('SKIP_CLIENT_BUILD=1 leaves a missing build missing', () => {
    const out = path.join(mkdtempSync(path.join(os.tmpdir(), 'client-build-')), 'public');
    dirs.push(path.dirname(out));
    expect(run(out, { SKIP_CLIENT_BUILD: '1' })).toMatch(/SKIP_CLIENT_BUILD=1/);
    expect(existsSync(out)).toBe(false);
  });
});
