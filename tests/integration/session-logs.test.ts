import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../lib/logger.ts';
import { REPO_ROOT } from '../../src/server.ts';
import { startWorldServer, type WorldServer } from '../../src/world-server.ts';
import { testConfig } from '../helpers/server.ts';
import { TestWsClient } from '../helpers/ws-client.ts';

/**
 * A full session against the real server (simulation, sessions, PGlite), with every log line captured
 * at debug: logins, an admin elevation and admin commands, a completed trade, a takeover, logouts and
 * a rate-limit block each leave a structured line, and no secret the session used (JWT_SECRET,
 * ADMIN_CODE, METRICS_TOKEN, the session tokens, a token passed on the URL) appears anywhere in the log.
 */

const JWT_SECRET = 'log-test-jwt-secret-0123456789-abcdefghijkl';
const ADMIN_CODE = 'log-test-admin-code-5f1e2d';
const METRICS_TOKEN = 'log-test-metrics-token-0123456789-abcdef';
const WRONG_ADMIN_CODE = 'log-test-wrong-admin-guess';

const lines: string[] = [];
let worldDir: string;
let srv: WorldServer;
let wsUrl: string;
let base: string;
const secrets: string[] = [JWT_SECRET, ADMIN_CODE, METRICS_TOKEN, WRONG_ADMIN_CODE];

// biome-ignore lint/suspicious/noExplicitAny: log lines are free-form JSON
const parsed = (): any[] => lines.map((l) => JSON.parse(l));
const withMsg = (msg: string) => parsed().filter((l) => l.msg === msg);

beforeAll(async () => {
  worldDir = mkdtempSync(path.join(os.tmpdir(), 'session-logs-'));
  const config = testConfig({
    WORLD: worldDir,
    TICK_MS: '50',
    JWT_SECRET,
    ADMIN_CODE,
    METRICS_TOKEN,
  });
  const capture = new Writable({
    write(chunk, _enc, cb) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      cb();
    },
  });
  srv = await startWorldServer(config, createLogger({ ...config, logLevel: 'debug' }, capture), {
    manifestsDir: path.join(REPO_ROOT, 'world', 'assets', 'manifests'),
    publicDir: '/nonexistent/public',
  });
  wsUrl = `ws://127.0.0.1:${srv.port}/ws`;
  base = `http://127.0.0.1:${srv.port}`;
}, 60_000);

afterAll(async () => {
  await srv?.stop();
  rmSync(worldDir, { recursive: true, force: true });
});

async function enter(name: string, query: Record<string, string> = {}) {
  const client = await TestWsClient.connect(wsUrl, { encoding: 'json', query });
  if (query['authToken'] === undefined) client.send('authenticate', { name });
  const auth = await client.next('authResult', 15_000);
  expect(auth.payload.success).toBe(true);
  secrets.push(auth.payload.sessionToken as string);
  await client.next('player:sync', 5000);
  return { client, id: auth.payload.characterId as string, token: auth.payload.sessionToken as string };
}

async function system(c: TestWsClient, pattern: RegExp): Promise<string> {
  for (;;) {
    const m = await c.next('chat:message', 5000);
    if (m.payload.channel === 'system' && pattern.test(m.payload.message)) return m.payload.message;
  }
}

describe('structured logs of a full session', () => {
  it('logs logins, admin, trade, takeover, logouts and limits, and never a secret', async () => {
    // An HTTP sign-up whose token is used on the URL and as a Bearer token.
    const signup = (await (await fetch(`${base}/api/auth/anonymous`, { method: 'POST' })).json()) as {
      token: string;
    };
    secrets.push(signup.token as string);
    expect(
      (await fetch(`${base}/api/v1/player`, { headers: { authorization: `Bearer ${signup.token}` } })).status,
    ).toBeLessThan(500);

    const alice = await enter('Alice');
    const bob = await enter('Bobby', { authToken: signup.token as string });

    // Admin: a wrong code, then the right one, then commands.
    alice.client.send('player:chat', { message: `/admin ${WRONG_ADMIN_CODE}` });
    expect((await alice.client.next('error')).payload.code).toBe('FORBIDDEN');
    alice.client.send('player:chat', { message: `/admin ${ADMIN_CODE}` });
    await system(alice.client, /Admin commands enabled/);
    alice.client.send('player:chat', { message: '/coins 100' });
    await system(alice.client, /^You now have \d+ coins/);

    // A trade of 10 coins, completed.
    alice.client.send('tradeRequest', { targetPlayerId: bob.id });
    const tradeId = (await bob.client.next('tradeIncoming')).payload.tradeId as string;
    bob.client.send('tradeRequestRespond', { tradeId, accept: true });
    await alice.client.next('tradeStarted');
    alice.client.send('tradeAddItem', { tradeId, coins: 10 });
    await bob.client.next('tradeUpdated');
    alice.client.send('tradeAccept', { tradeId });
    bob.client.send('tradeAccept', { tradeId });
    await alice.client.next('tradeConfirmScreen');
    await bob.client.next('tradeConfirmScreen');
    alice.client.send('tradeAccept', { tradeId });
    bob.client.send('tradeAccept', { tradeId });
    await alice.client.next('tradeCompleted', 10_000);
    await bob.client.next('tradeCompleted', 10_000);

    // Takeover: Alice's character from a new connection, with her session token on the URL.
    const again = await TestWsClient.connect(wsUrl, {
      encoding: 'json',
      query: { authToken: alice.token, characterId: alice.id },
    });
    expect((await again.next('authResult', 15_000)).payload.success).toBe(true);
    expect(await alice.client.waitClose(10_000)).toBe(4002);

    // Metrics with the token (a secret that must not be logged either).
    const metrics = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(metrics.status).toBe(200);
    await metrics.arrayBuffer();

    // A rate-limit block: 11 authentication attempts from one address.
    for (let i = 0; i < 11; i++)
      await (await fetch(`${base}/api/auth/anonymous`, { method: 'POST' })).arrayBuffer();

    again.close();
    bob.client.close();
    await again.waitClose();
    await bob.client.waitClose();
    await srv.stop();

    const logins = withMsg('login');
    expect(logins.map((l) => l.characterId)).toEqual(expect.arrayContaining([alice.id, bob.id]));
    expect(logins.find((l) => l.characterId === alice.id)).toMatchObject({
      accountId: expect.any(String),
      ip: '127.0.0.1',
      encoding: 'json',
      anonymous: true,
    });
    expect(withMsg('admin code refused')[0]).toMatchObject({ characterId: alice.id, verdict: 'wrong' });
    expect(withMsg('admin elevation')[0]).toMatchObject({ characterId: alice.id, ip: '127.0.0.1' });
    expect(withMsg('admin command')[0]).toMatchObject({
      characterId: alice.id,
      command: 'coins',
      args: ['100'],
    });
    expect(withMsg('trade completed')[0]).toMatchObject({ tradeId, itemCount: 0, coins: 10 });
    expect(withMsg('takeover')[0]).toMatchObject({ characterId: alice.id });
    const logouts = withMsg('logout');
    expect(logouts.find((l) => l.characterId === alice.id)).toMatchObject({ reason: 'takeover' });
    expect(logouts.find((l) => l.characterId === bob.id)).toMatchObject({
      reason: 'disconnect',
      sessionSeconds: expect.any(Number),
    });
    expect(withMsg('limit reached: address blocked until its window ends')[0]).toMatchObject({
      limit: 'auth_attempts',
      ip: '127.0.0.1',
    });

    const all = lines.join('\n');
    expect(lines.length).toBeGreaterThan(20);
    for (const secret of secrets) {
      expect(secret.length).toBeGreaterThan(10);
      expect(all.includes(secret), `a secret leaked into the log: ${secret.slice(0, 6)}...`).toBe(false);
    }
  }, 90_000);
});
