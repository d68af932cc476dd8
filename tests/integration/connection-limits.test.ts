import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { api, type IdentityTestServer, startIdentityServer } from '../helpers/identity-server.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { TestWsClient } from '../helpers/ws-client.ts';

/**
 * The connection limits, each provoked over real sockets and each counted in
 * game_limit_refusals_total{limit}: WebSockets per address, browser origins, unauthenticated sockets,
 * authentication attempts across HTTP and WebSocket, and slow request headers and bodies (slowloris).
 */

let s: TestServer | IdentityTestServer | undefined;
const sockets: { close(): void }[] = [];
afterEach(async () => {
  for (const c of sockets.splice(0)) c.close();
  await s?.stop();
  s = undefined;
});

/** Upgrade /ws; resolves with 'open' or the HTTP status (and body) of a refused upgrade. */
function upgrade(
  wsUrl: string,
  headers: Record<string, string> = {},
): Promise<
  { open: true; ws: WebSocket } | { open: false; status: number; body: string; retryAfter?: string }
> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(wsUrl, { headers });
    ws.once('open', () => {
      sockets.push(ws);
      resolve({ open: true, ws });
    });
    ws.once('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (c: Buffer) => {
        body += c.toString();
      });
      res.on('end', () =>
        resolve({
          open: false,
          status: res.statusCode ?? 0,
          body,
          ...(res.headers['retry-after'] ? { retryAfter: String(res.headers['retry-after']) } : {}),
        }),
      );
    });
    ws.once('error', (e) => reject(e));
  });
}

/** The counter's value for `limit` (the registry is per process: tests compare before and after). */
async function refusals(t: TestServer, limit: string): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${t.server.metricsPort}/metrics`)).text();
  const m = new RegExp(`^game_limit_refusals_total\\{limit="${limit}"\\} (\\d+)$`, 'm').exec(text);
  return m ? Number(m[1]) : 0;
}

/**
 * The counter once it reached `want`: refusals made on the network thread reach main's registry in the
 * thread's next event batch, which may arrive after the refused client has its answer.
 */
async function refusalsReach(t: TestServer, limit: string, want: number): Promise<number> {
  let n = await refusals(t, limit);
  for (let i = 0; i < 100 && n < want; i++) {
    await new Promise((r) => setTimeout(r, 50));
    n = await refusals(t, limit);
  }
  return n;
}

describe('WebSocket connections per address', () => {
  it('refuses the upgrade past WS_MAX_CONNECTIONS_PER_ADDRESS with 429 problem+json, and frees a slot on close', async () => {
    s = await startTestServer({ WS_MAX_CONNECTIONS_PER_ADDRESS: '3' });
    const before = await refusals(s, 'ws_per_address');
    const open: WebSocket[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await upgrade(s.wsUrl);
      expect(r.open).toBe(true);
      if (r.open) open.push(r.ws);
    }
    const refused = await upgrade(s.wsUrl);
    expect(refused).toMatchObject({ open: false, status: 429, retryAfter: '10' });
    if (!refused.open) expect(JSON.parse(refused.body)).toMatchObject({ status: 429, code: 'RATE_LIMITED' });
    expect(await refusalsReach(s, 'ws_per_address', before + 1)).toBe(before + 1);

    // One closes: its slot is free again.
    const closed = new Promise((r) => open[0]!.once('close', r));
    open[0]!.close();
    await closed;
    let again = await upgrade(s.wsUrl);
    // The close reaches the network thread's count a moment after the client sees it.
    for (let i = 0; i < 50 && !again.open; i++) {
      await new Promise((r) => setTimeout(r, 20));
      again = await upgrade(s.wsUrl);
    }
    expect(again.open).toBe(true);
  });
});

describe('browser origins (ALLOWED_WS_ORIGINS)', () => {
  it('by default allows the CORS allowlist and clients without Origin; refuses other origins with 403', async () => {
    s = await startTestServer();
    const before = await refusals(s, 'ws_origin');
    expect((await upgrade(s.wsUrl)).open).toBe(true);
    expect((await upgrade(s.wsUrl, { origin: 'http://localhost:3333' })).open).toBe(true);
    const refused = await upgrade(s.wsUrl, { origin: 'https://evil.example' });
    expect(refused).toMatchObject({ open: false, status: 403 });
    if (!refused.open) expect(JSON.parse(refused.body)).toMatchObject({ code: 'FORBIDDEN' });
    expect(await refusalsReach(s, 'ws_origin', before + 1)).toBe(before + 1);
  });

  it('with ALLOWED_WS_ORIGINS only those origins (and clients without Origin) may connect', async () => {
    s = await startTestServer({ ALLOWED_WS_ORIGINS: 'https://play.example.com' });
    expect((await upgrade(s.wsUrl, { origin: 'https://play.example.com' })).open).toBe(true);
    expect((await upgrade(s.wsUrl)).open).toBe(true);
    expect(await upgrade(s.wsUrl, { origin: 'http://localhost:3333' })).toMatchObject({
      open: false,
      status: 403,
    });
  });

  it('ALLOWED_WS_ORIGINS=* lets any origin connect', async () => {
    s = await startTestServer({ ALLOWED_WS_ORIGINS: '*' });
    expect((await upgrade(s.wsUrl, { origin: 'https://evil.example' })).open).toBe(true);
  });
});

describe('unauthenticated sockets', () => {
  it('past WS_MAX_UNAUTHENTICATED a new socket is closed with 1013; authenticating frees a place', async () => {
    const t = await startIdentityServer({ WS_MAX_UNAUTHENTICATED: '2' });
    s = t;
    const before = await refusals(t, 'ws_unauthenticated');
    const a = await TestWsClient.connect(t.wsUrl, { encoding: 'json' });
    const b = await TestWsClient.connect(t.wsUrl, { encoding: 'json' });
    sockets.push(a, b);
    const c = await TestWsClient.connect(t.wsUrl, { encoding: 'json' });
    sockets.push(c);
    expect(await c.waitClose()).toBe(1013);
    expect(await refusals(t, 'ws_unauthenticated')).toBe(before + 1);

    a.send('authenticate', {});
    expect((await a.next('authResult', 15_000)).payload.success).toBe(true);
    const d = await TestWsClient.connect(t.wsUrl, { encoding: 'json' });
    sockets.push(d);
    d.send('authenticate', {});
    expect((await d.next('authResult', 15_000)).payload.success).toBe(true);
  });
});

describe('a socket whose authenticate arrived no longer counts as unauthenticated', () => {
  it('its login waits in the login queue while a new socket gets its place (no 1013)', async () => {
    const t = await startIdentityServer({ WS_MAX_UNAUTHENTICATED: '1' });
    s = t;
    // The embedded database is held by an open transaction: a's anonymous sign-up waits for it.
    let release!: () => void;
    const held = t.db.transaction(
      () =>
        new Promise<void>((resolve) => {
          release = resolve;
        }),
    );
    const a = await TestWsClient.connect(t.wsUrl, { encoding: 'json' });
    sockets.push(a);
    const aResult = a.next('authResult', 30_000);
    a.send('authenticate', {});
    // A second authenticate is answered BUSY at once: the server has a's first one and is handling it.
    a.send('authenticate', {});
    expect((await a.next('error', 30_000)).payload).toMatchObject({ code: 'BUSY' });
    const b = await TestWsClient.connect(t.wsUrl, { encoding: 'json' });
    sockets.push(b);
    const bResult = b.next('authResult', 30_000);
    b.send('authenticate', {});
    release();
    await held;
    expect((await aResult).payload.success).toBe(true);
    expect((await bResult).payload.success).toBe(true);
  });
});

describe('authentication attempts per address, across HTTP and WebSocket', () => {
  it('10 HTTP attempts use up the window: a WebSocket authenticate is then refused', async () => {
    const t = await startIdentityServer();
    s = t;
    const before = await refusals(t, 'auth_attempts');
    for (let i = 0; i < 10; i++) {
      const res = await api(t.url, 'POST', '/api/auth/anonymous');
      expect(res.status).toBe(200);
      await res.arrayBuffer();
    }
    const ws = await TestWsClient.connect(t.wsUrl, { encoding: 'json' });
    sockets.push(ws);
    ws.send('authenticate', {});
    expect((await ws.next('authResult', 15_000)).payload).toEqual({
      success: false,
      error: 'too many authentication attempts',
    });
    expect(await ws.waitClose()).toBe(4001);
    expect(await refusals(t, 'auth_attempts')).toBe(before + 1);
  });

  it('10 sign-ups from one address use up its window, yet logins with their valid tokens still enter; a bad token is refused', async () => {
    const t = await startIdentityServer();
    s = t;
    const tokens: string[] = [];
    for (let i = 0; i < 10; i++) {
      const res = await api(t.url, 'POST', '/api/auth/anonymous');
      expect(res.status).toBe(200);
      tokens.push(((await res.json()) as { token: string }).token);
    }
    expect(t.server.rateLimits.isAuthBlocked('127.0.0.1')).toBe(true);
    const before = await refusals(t, 'auth_attempts');
    for (const [i, token] of tokens.entries()) {
      // Half in the authenticate message, half on the URL.
      const onUrl = i % 2 === 1;
      const ws = await TestWsClient.connect(t.wsUrl, {
        encoding: 'json',
        ...(onUrl ? { query: { authToken: token } } : {}),
      });
      sockets.push(ws);
      if (!onUrl) ws.send('authenticate', { authToken: token });
      const auth = (await ws.next('authResult', 15_000)).payload;
      expect(auth.success, JSON.stringify(auth)).toBe(true);
      ws.close();
      await ws.waitClose();
    }
    expect(await refusals(t, 'auth_attempts')).toBe(before);
    const bad = await TestWsClient.connect(t.wsUrl, { encoding: 'json' });
    sockets.push(bad);
    bad.send('authenticate', { authToken: 'not-a-token' });
    expect((await bad.next('authResult', 15_000)).payload).toEqual({
      success: false,
      error: 'too many authentication attempts',
    });
    expect(await bad.waitClose()).toBe(4001);
    expect(await refusals(t, 'auth_attempts')).toBe(before + 1);
  });

  it('bad tokens over WebSocket count too: the next HTTP login attempt is 429', async () => {
    const t = await startIdentityServer();
    s = t;
    const before = await refusals(t, 'auth_attempts');
    for (let i = 0; i < 10; i++) {
      const ws = await TestWsClient.connect(t.wsUrl, { encoding: 'json' });
      sockets.push(ws);
      ws.send('authenticate', { authToken: `not-a-token-${i}` });
      expect((await ws.next('authResult', 15_000)).payload.success).toBe(false);
      expect(await ws.waitClose()).toBe(4001);
    }
    const res = await api(t.url, 'POST', '/api/auth/anonymous');
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await refusals(t, 'auth_attempts')).toBe(before + 1);
  });
});

/** Raw TCP: write `first`, then `trickle` one byte every `everyMs`; resolves with what came back at close. */
function slowClient(port: number, first: string, everyMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let got = '';
    const sock = net.connect(port, '127.0.0.1', () => sock.write(first));
    const timer = setInterval(() => {
      if (!sock.destroyed) sock.write('a');
    }, everyMs);
    sock.on('data', (d) => {
      got += d.toString();
    });
    sock.on('error', () => {});
    sock.on('close', () => {
      clearInterval(timer);
      resolve(got);
    });
    sockets.push({ close: () => sock.destroy() });
    setTimeout(() => reject(new Error('slow client still connected after 30 s')), 30_000).unref();
  });
}

describe('slow clients (slowloris)', () => {
  it('a body trickled in slower than HTTP_BODY_TIMEOUT_SECONDS is answered 408 and the connection closed', async () => {
    s = await startTestServer({ HTTP_BODY_TIMEOUT_SECONDS: '1' });
    const before = await refusals(s, 'http_body_timeout');
    const answer = await slowClient(
      s.port,
      'POST /api/anything HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{',
      200,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    expect(answer).toContain('Content-Type: application/problem+json');
    expect(answer).toContain('"code":"REQUEST_TIMEOUT"');
    expect(await refusalsReach(s, 'http_body_timeout', before + 1)).toBe(before + 1);
  });

  it('headers trickled in byte by byte: the connection is dropped without an answer (uWS, about 10 s)', async () => {
    s = await startTestServer();
    const answer = await slowClient(s.port, 'GET /health HTTP/1.1\r\nHost: x\r\nX-Slow: ', 2000);
    expect(answer).toBe('');
  }, 40_000);
});
