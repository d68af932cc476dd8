import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../lib/logger.ts';
import { REPO_ROOT } from '../../src/server.ts';
import { startWorldServer, type WorldServer } from '../../src/world-server.ts';
import { postgresAvailable, TEST_PG_URL } from '../helpers/db.ts';
import { api } from '../helpers/identity-server.ts';
import { testConfig } from '../helpers/server.ts';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.ts';

/**
 * Issue 26: a database outage answered GET /api/character/list with 500. The real server on PostgreSQL
 * through a TCP proxy the test controls: while it is down, every route that needs the database answers
 * 503 problem+json `DATABASE_UNAVAILABLE` with Retry-After (mapped once, in the HTTP error mapping), and
 * the same route answers 200 once the database is back.
 */

const available = await postgresAvailable();
if (!available && process.env['CI'] === 'true') throw new Error('PostgreSQL is required in CI');

let proxy: TcpProxy;
let srv: WorldServer | undefined;
let schema: string;
let worldDir: string;

beforeAll(async () => {
  if (!available) return;
  schema = `outage_http_${randomBytes(6).toString('hex')}`;
  const admin = postgres(TEST_PG_URL, { max: 1, onnotice: () => {} });
  await admin.unsafe(`CREATE SCHEMA ${schema}`);
  await admin.end();
  proxy = await startTcpProxy();
  const url = new URL(proxy.url(TEST_PG_URL));
  url.searchParams.set('search_path', schema);
  worldDir = mkdtempSync(path.join(os.tmpdir(), 'db-outage-http-'));
  const config = testConfig({
    WORLD: worldDir,
    DATABASE_URL: url.toString(),
    TICK_MS: '50',
    JWT_SECRET: 'outage-test-secret-0123456789-abcdefghijklmn',
    DISABLE_RATE_LIMIT: 'true',
  });
  srv = await startWorldServer(config, createLogger(config), {
    manifestsDir: path.join(REPO_ROOT, 'world', 'assets', 'manifests'),
    publicDir: '/nonexistent/public',
  });
});

afterAll(async () => {
  proxy?.up();
  await srv?.stop();
  await proxy?.close();
  if (schema) {
    const admin = postgres(TEST_PG_URL, { max: 1, onnotice: () => {} });
    await admin.unsafe(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await admin.end();
  }
  if (worldDir) rmSync(worldDir, { recursive: true, force: true });
});

const base = () => `http://127.0.0.1:${srv?.port}`;

describe.runIf(available)('HTTP routes while the database is unreachable', () => {
  it('every route that needs the database answers 503 DATABASE_UNAVAILABLE problem+json with Retry-After; 200 again once it is back', async () => {
    const anon = await api(base(), 'POST', '/api/auth/anonymous');
    const { token } = (await anon.json()) as { token: string };
    const created = await api(base(), 'POST', '/api/character/create', { token, body: { name: 'Outaged' } });
    expect(created.status).toBe(201);
    const { character } = (await created.json()) as { character: { id: string } };
    const id = character.id;
    const routes: [string, string, unknown?][] = [
      ['POST', '/api/auth/anonymous'],
      ['GET', '/api/character/list'],
      ['POST', '/api/character/create', { name: 'Second' }],
      ['POST', `/api/character/${id}/select`],
      ['DELETE', `/api/character/${id}`],
      ['GET', '/api/v1/player'],
      ['POST', '/api/v1/player', { name: 'Renamed' }],
      ['GET', `/api/characters/${id}/skills`],
      ['GET', `/api/player/${id}/inventory`],
      ['GET', `/api/player/${id}/bank`],
      ['GET', `/api/player/${id}/friends`],
      ['GET', '/api/agents'],
    ];
    proxy.down();
    try {
      const answers = await Promise.all(
        routes.map(async ([method, path, body]) => {
          const res = await api(base(), method, path, { token, ...(body !== undefined ? { body } : {}) });
          return {
            route: `${method} ${path}`,
            status: res.status,
            type: res.headers.get('content-type'),
            retryAfter: res.headers.get('retry-after'),
            code: ((await res.json()) as { code?: string }).code,
          };
        }),
      );
      for (const a of answers)
        expect(a).toEqual({
          route: a.route,
          status: 503,
          type: 'application/problem+json',
          retryAfter: '5',
          code: 'DATABASE_UNAVAILABLE',
        });
    } finally {
      proxy.up();
    }
    await expect
      .poll(async () => (await api(base(), 'GET', '/api/character/list', { token })).status, {
        timeout: 30_000,
        interval: 500,
      })
      .toBe(200);
  }, 120_000);
});
