import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../lib/logger.ts';
import { GameClient } from '../../sdk/src/index.ts';
import { REPO_ROOT } from '../../src/server.ts';
import { startWorldServer, type WorldServer } from '../../src/world-server.ts';
import { testConfig } from '../helpers/server.ts';

/**
 * The Python example (examples/python/agent.py: the standard library and `websockets`) plays against
 * the real server at the real 600 ms tick with the rate limits on: it walks, gathers (xp, items) and
 * chats, heard by a player standing at the spawn. It needs python3 with `websockets` (.ci/run installs
 * it): in CI a missing one fails the test; elsewhere the test is skipped, saying so.
 */

const TICK_MS = 600;
const PLAY_SECONDS = 75;
const python = process.env['PYTHON'] ?? 'python3';
const probe = spawnSync(python, ['-c', 'import websockets; print(websockets.__version__)'], {
  encoding: 'utf8',
});
const havePython = probe.status === 0;
const inCi = process.env['CI'] === 'true';
if (!havePython && !inCi) {
  console.warn(
    `\n*** Python example test SKIPPED: ${python} with the websockets package is missing (pip install websockets==15.0.1). ***\n`,
  );
}

let worldDir: string;
let srv: WorldServer | undefined;
let base: string;

beforeAll(async () => {
  if (!havePython && !inCi) return;
  worldDir = mkdtempSync(path.join(os.tmpdir(), 'python-example-'));
  const config = testConfig({
    WORLD: worldDir,
    TICK_MS: String(TICK_MS),
    JWT_SECRET: 'integration-test-secret-0123456789-abcdefghij',
  });
  srv = await startWorldServer(config, createLogger(config), {
    manifestsDir: path.join(REPO_ROOT, 'world', 'assets', 'manifests'),
    publicDir: '/nonexistent/public',
  });
  base = `127.0.0.1:${srv.port}`;
});

afterAll(async () => {
  await srv?.stop();
  if (worldDir) rmSync(worldDir, { recursive: true, force: true });
});

describe.skipIf(!havePython && !inCi)('the Python example agent at the real tick', () => {
  it('walks, gathers and chats', async () => {
    expect(havePython, `${python} with websockets is required in CI: ${probe.stderr ?? probe.error}`).toBe(
      true,
    );
    const listener = await GameClient.connect({ url: `ws://${base}/ws`, encoding: 'json' });
    const heard: string[] = [];
    listener.on('chat:message', (m) => heard.push(m.message));
    const child = spawn(
      python,
      [
        path.join(REPO_ROOT, 'examples', 'python', 'agent.py'),
        '--server',
        base,
        '--seconds',
        String(PLAY_SECONDS),
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      err += d.toString();
    });
    try {
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      expect(code, err).toBe(0);
      const final = out
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, number | boolean | string>)
        .find((l) => l['final'] === true);
      expect(final, out).toBeDefined();
      expect(final?.['moves']).toBeGreaterThan(0);
      expect(final?.['runs']).toBeGreaterThan(0);
      expect(final?.['xp']).toBeGreaterThan(0);
      expect(final?.['gathered']).toBeGreaterThan(0);
      expect(heard).toContain('hello from Python');
    } finally {
      child.kill();
      await listener.close();
    }
  }, 150_000);
});
