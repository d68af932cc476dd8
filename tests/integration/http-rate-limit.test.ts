import { afterEach, describe, expect, it } from 'vitest';
import { HttpRateLimits } from '../../net/http/rate-limit.ts';
import type { RouteDef } from '../../net/http/types.ts';
import { problemOf } from '../helpers/http.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { TestWsClient } from '../helpers/ws-client.ts';

const routes: RouteDef[] = [
  { method: 'GET', path: '/api/test/ping', handler: () => ({ body: { pong: true } }) },
  { method: 'POST', path: '/api/auth/test-login', handler: () => ({ body: { ok: true } }) },
  {
    method: 'GET',
    path: '/api/test/mine',
    auth: 'bearer',
    handler: (req) => ({ body: { accountId: req.auth?.accountId } }),
  },
];

/** Tokens `good-<account>` verify as that account; anything else does not. */
const verifyBearer = async (token: string) =>
  token.startsWith('good-') ? { accountId: token.slice(5), anonymous: true } : null;

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

  it("a REST request whose bearer token verifies counts in that token's window, not the address's", async () => {
    s = await startTestServer({}, { routes, verifyBearer });
    const mine = (token: string) => get('/api/test/mine', { authorization: `Bearer ${token}` });
    // The address uses up its own window (no token)...
    for (let i = 0; i < 100; i++) await (await get('/api/test/ping')).arrayBuffer();
    expect((await get('/api/test/ping')).status).toBe(429);
    // ...and two tokens from the same address still have 120 each: two agents, or an agent and a dashboard.
    for (const token of ['good-agent', 'good-dashboard']) {
      for (let i = 1; i <= 120; i++) {
        const res = await mine(token);
        expect(res.status).toBe(200);
        expect(res.headers.get('ratelimit-limit')).toBe('120');
        expect(res.headers.get('ratelimit-remaining')).toBe(String(120 - i));
        await res.arrayBuffer();
      }
    }
    const refused = await mine('good-agent');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(await problemOf(refused)).toMatchObject({ code: 'RATE_LIMITED' });
    // A token that does not verify is counted against the address (blocked here), as no token is.
    expect((await mine('forged')).status).toBe(429);
    expect((await get('/api/test/mine')).status).toBe(429);
  });

  it("a public REST route read with a bearer token that verifies counts in the token's window too", async () => {
    s = await startTestServer({}, { routes, verifyBearer });
    for (let i = 0; i < 100; i++) await (await get('/api/test/ping')).arrayBuffer();
    expect((await get('/api/test/ping')).status).toBe(429);
    // An agent reading the public content with its token is not held back by its address.
    const withToken = await get('/api/test/ping', { authorization: 'Bearer good-reader' });
    expect(withToken.status).toBe(200);
    expect(withToken.headers.get('ratelimit-limit')).toBe('120');
    expect(withToken.headers.get('ratelimit-remaining')).toBe('119');
    // A public route does not need the token: one that does not verify is counted per address, not 401.
    expect((await get('/api/test/ping', { authorization: 'Bearer forged' })).status).toBe(429);
  });

  it('a bearer token that does not verify is counted per address and answered 401', async () => {
    s = await startTestServer({}, { routes, verifyBearer });
    const res = await get('/api/test/mine', { authorization: 'Bearer forged' });
    expect(res.status).toBe(401);
    expect(res.headers.get('ratelimit-remaining')).toBe('99');
    // The address's window is the one that counted it; a good token has its own, untouched.
    const good = await get('/api/test/mine', { authorization: 'Bearer good-a' });
    expect(await good.json()).toEqual({ accountId: 'a' });
    expect(good.headers.get('ratelimit-remaining')).toBe('119');
    expect((await get('/api/test/ping')).headers.get('ratelimit-remaining')).toBe('98');
  });

  it('a dashboard polling every 5 s, every call retried three times, beside its agent and a runaway one: never 429', async () => {
    // Ten minutes on a clock of the test's own (the windows are 60 s); every request is a real one.
    const c = { t: 1_000_000 };
    const rateLimits = new HttpRateLimits(false, () => c.t, { sweepEveryMs: 0 });
    s = await startTestServer({}, { routes, verifyBearer, rateLimits });
    const mine = (token: string) => get('/api/test/mine', { authorization: `Bearer ${token}` });
    const statuses = new Map<number, number>();
    const count = async (res: Response) => {
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      await res.arrayBuffer();
    };
    // The agent, on its owner's token, looks itself up at start (character, agent, mapping).
    for (let i = 0; i < 3; i++) await count(await mine('good-owner'));
    let runaway429 = 0;
    for (let round = 0; round < 120; round++) {
      // quick-actions and goal, each sent four times (a first try and three retries).
      for (let call = 0; call < 8; call++) await count(await mine('good-owner'));
      // Another agent on the same address polls as fast as it can: it hits its own limit only.
      for (let i = 0; i < 12; i++) if ((await mine('good-runaway')).status === 429) runaway429++;
      c.t += 5000;
    }
    expect(statuses).toEqual(new Map([[200, 3 + 120 * 8]]));
    expect(runaway429).toBeGreaterThan(0);
  });

  it('a wrong admin code counted with countAuthFailure blocks HTTP logins from that address', async () => {
    s = await startTestServer({}, { routes });
    for (let i = 0; i < 10; i++) s.server.rateLimits.countAuthFailure('127.0.0.1');
    expect(s.server.rateLimits.isAuthBlocked('127.0.0.1')).toBe(true);
    expect((await fetch(`${s.url}/api/auth/test-login`, { method: 'POST' })).status).toBe(429);
  });
});
