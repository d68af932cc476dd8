import { afterEach, describe, expect, it } from 'vitest';
import { problemOf } from '../helpers/http.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

/**
 * /metrics is off the public port by default: served by a separate listener (METRICS_PORT on
 * METRICS_HOST, 127.0.0.1 unless told otherwise). With METRICS_TOKEN it is also on the public port,
 * to the Bearer token only, and wrong tokens count against the address's authentication window.
 */

let s: TestServer | undefined;
afterEach(async () => {
  await s?.stop();
  s = undefined;
});

const TOKEN = 'metrics-token-0123456789-abcdefghijklmnop';
const metricsUrl = (t: TestServer) => `http://127.0.0.1:${t.server.metricsPort}/metrics`;
const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });

describe('/metrics access', () => {
  it('by default: 404 on the public port, Prometheus text on the separate listener', async () => {
    s = await startTestServer();
    const pub = await fetch(`${s.url}/metrics`);
    expect(pub.status).toBe(404);
    expect(await problemOf(pub)).toMatchObject({ code: 'NOT_FOUND' });

    expect(s.config.metrics.host).toBe('127.0.0.1');
    expect(s.server.metricsPort).toBeGreaterThan(0);
    const res = await fetch(metricsUrl(s));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    const text = await res.text();
    expect(text).toContain('game_ws_connections');
    expect(text).toContain('game_limit_refusals_total');

    // Only /metrics, only GET/HEAD there.
    const other = await fetch(`http://127.0.0.1:${s.server.metricsPort}/status`);
    expect(other.status).toBe(404);
    expect(await problemOf(other)).toMatchObject({ code: 'NOT_FOUND' });
    const post = await fetch(metricsUrl(s), { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
  });

  it('METRICS_PORT=off: no separate listener', async () => {
    s = await startTestServer({ METRICS_PORT: 'off' });
    expect(s.server.metricsPort).toBeNull();
    expect((await fetch(`${s.url}/metrics`)).status).toBe(404);
  });

  it('with METRICS_TOKEN: the public port serves /metrics to the Bearer token only (401 otherwise)', async () => {
    s = await startTestServer({ METRICS_TOKEN: TOKEN });
    const none = await fetch(`${s.url}/metrics`);
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Bearer realm="metrics"');
    expect(await problemOf(none)).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
    // A prefix, the token with a suffix, another scheme: all refused.
    for (const auth of [`Bearer ${TOKEN.slice(0, -1)}`, `Bearer ${TOKEN}x`, `Basic ${TOKEN}`]) {
      const res = await fetch(`${s.url}/metrics`, { headers: { authorization: auth } });
      expect(res.status, auth).toBe(401);
      await res.arrayBuffer();
    }
    const ok = await fetch(`${s.url}/metrics`, bearer(TOKEN));
    expect(ok.status).toBe(200);
    const text = await ok.text();
    expect(text).toMatch(/^game_limit_refusals_total\{limit="metrics_token"\} [1-9]\d*$/m);
    expect(text).not.toContain(TOKEN);

    // The separate listener asks for the same token.
    expect((await fetch(metricsUrl(s))).status).toBe(401);
    expect((await fetch(metricsUrl(s), bearer(TOKEN))).status).toBe(200);
  });

  it('wrong metrics tokens count against the authentication window of the address: 429 after 10', async () => {
    s = await startTestServer({ METRICS_TOKEN: TOKEN });
    for (let i = 0; i < 10; i++) {
      const res = await fetch(`${s.url}/metrics`, bearer(`guess-${i}`));
      expect(res.status).toBe(401);
      await res.arrayBuffer();
    }
    const blocked = await fetch(`${s.url}/metrics`, bearer(TOKEN));
    expect(blocked.status).toBe(429);
    expect(await problemOf(blocked)).toMatchObject({ code: 'RATE_LIMITED' });
    expect(s.server.rateLimits.isAuthBlocked('127.0.0.1')).toBe(true);
  });
});
