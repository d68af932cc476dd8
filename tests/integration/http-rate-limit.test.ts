import { afterEach, describe, expect, it } from 'vitest';
import type { RouteDef } from '../../net/http/types.ts';
import { problemOf } from '../helpers/http.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { TestWsClient } from '../helpers/ws-client.ts';

const routes: RouteDef[] = [
  { method: 'GET', path: '/api/test/ping', handler: () => ({ body: { pong: true } }) },
  { method: 'POST', path: '/api/auth/test-login', handler: () => ({ body: { ok: true } }) },
];

let s: TestServer | undefined;
afterEach(async () => {
  await s?.stop();
  s = undefined;
});

const get = (path: string, headers: Record<string, string> = {}) => fetch(`${s!.url}${path}`, { headers });

describe('REST rate limit (contract §3.3)', () => {
  it('100 requests a minute pass with RateLimit-* headers; the 101st is 429 with Retry-After, and the block holds', async () => {
    s = await startTestServer({}, { routes });
    for (let i = 1; i <= 100; i++) {
      const res = await get('/api/test/ping');
      expect(res.status).toBe(200);
      expect(res.headers.get('ratelimit-limit')).toBe('100');
      expect(res.headers.get('ratelimit-remaining')).toBe(String(100 - i));
      expect(Number(res.headers.get('ratelimit-reset'))).toBeGreaterThan(0);
      await res.arrayBuffer();
    }
    const refused = await get('/api/test/ping');
    expect(refused.status).toBe(429);
    const retryAfter = refused.headers.get('retry-after');
    expect(retryAfter).toMatch(/^\d+$/);
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(retryAfter)).toBeLessThanOrEqual(60);
    expect(await problemOf(refused)).toMatchObject({ status: 429, code: 'RATE_LIMITED' });
    // Still blocked, on any counted path, until the window ends.
    expect((await get('/api/anything-else')).status).toBe(429);
    // Uncounted paths stay reachable (/metrics is not on the public port without METRICS_TOKEN).
    for (const p of ['/health', '/status', '/env.js']) {
      const res = await get(p);
      expect(res.status, p).toBe(200);
      expect(res.headers.get('ratelimit-limit'), p).toBeNull();
    }
  });

  it('/health, /status and WebSocket upgrades are never counted', async () => {
    s = await startTestServer({}, { routes });
    for (let i = 0; i < 150; i++) expect((await get(i % 2 ? '/health' : '/status')).status).toBe(200);
    for (let i = 0; i < 5; i++) {
      const c = await TestWsClient.connect(s.wsUrl);
      c.close();
      await c.waitClose();
    }
    expect((await get('/api/test/ping')).headers.get('ratelimit-remaining')).toBe('99');
  });

  it('auth routes: 10 a minute, and they count in the REST window too', async () => {
    s = await startTestServer({}, { routes });
    for (let i = 1; i <= 10; i++) {
      const res = await fetch(`${s.url}/api/auth/test-login`, { method: 'POST' });
      expect(res.status).toBe(200);
      expect(res.headers.get('ratelimit-limit')).toBe('10');
    }
    const refused = await fetch(`${s.url}/api/auth/test-login`, { method: 'POST' });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    const rest = await get('/api/test/ping');
    expect(rest.status).toBe(200);
    expect(rest.headers.get('ratelimit-remaining')).toBe(String(100 - 12));
  });

  it('X-Forwarded-For is ignored without TRUST_PROXY and used with it', async () => {
    s = await startTestServer({}, { routes });
    for (let i = 0; i < 100; i++)
      await (await get('/api/test/ping', { 'x-forwarded-for': `10.0.0.${i}` })).arrayBuffer();
    expect((await get('/api/test/ping', { 'x-forwarded-for': '10.9.9.9' })).status).toBe(429);
    await s.stop();

    s = await startTestServer({ TRUST_PROXY: 'true' }, { routes });
    for (let i = 0; i < 100; i++)
      await (await get('/api/test/ping', { 'x-forwarded-for': '10.0.0.1, 127.0.0.1' })).arrayBuffer();
    expect((await get('/api/test/ping', { 'x-forwarded-for': '10.0.0.1' })).status).toBe(429);
    const other = await get('/api/test/ping', { 'x-forwarded-for': '10.0.0.2' });
    expect(other.status).toBe(200);
    expect(other.headers.get('ratelimit-remaining')).toBe('99');
  });

  it('DISABLE_RATE_LIMIT=true outside production turns the REST and auth limits off', async () => {
    s = await startTestServer({ DISABLE_RATE_LIMIT: 'true' }, { routes });
    for (let i = 0; i < 120; i++) {
      const res = await get('/api/test/ping');
      expect(res.status).toBe(200);
      expect(res.headers.get('ratelimit-limit')).toBeNull();
    }
    for (let i = 0; i < 15; i++)
      expect((await fetch(`${s.url}/api/auth/test-login`, { method: 'POST' })).status).toBe(200);
  });

  it('a wrong admin code counted with countAuthFailure blocks HTTP logins from that address', async () => {
    s = await startTestServer({}, { routes });
    for (let i = 0; i < 10; i++) s.server.rateLimits.countAuthFailure('127.0.0.1');
    expect(s.server.rateLimits.isAuthBlocked('127.0.0.1')).toBe(true);
    expect((await fetch(`${s.url}/api/auth/test-login`, { method: 'POST' })).status).toBe(429);
  });
});
