import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createLogger } from '../../lib/logger.ts';
import { HttpError, type RouteDef } from '../../net/http/types.ts';
import { PACKAGE_VERSION } from '../../src/version.ts';
import { jsonOf, problemOf, rawHttp } from '../helpers/http.ts';
import { fakeStatus, startTestServer, type TestServer, testConfig } from '../helpers/server.ts';

const testRoutes: RouteDef[] = [
  {
    method: 'POST',
    path: '/api/test/echo',
    maxBodyBytes: 1024,
    handler: (req) => ({ body: { body: req.body ?? null } }),
  },
  {
    method: 'GET',
    path: '/api/test/items/:id',
    handler: (req) => ({ body: { params: req.params, q: req.query.get('q') } }),
  },
  {
    method: 'GET',
    path: '/api/test/boom',
    handler: () => {
      throw new Error('db password hunter2 at /srv/internal.ts:42');
    },
  },
  {
    method: 'GET',
    path: '/api/test/teapot',
    handler: () => {
      throw new HttpError(409, 'CONFLICT', 'already there');
    },
  },
  {
    method: 'POST',
    path: '/api/test/validated',
    handler: (req) => ({ status: 201, body: z.strictObject({ n: z.number().int() }).parse(req.body) }),
  },
  {
    method: 'GET',
    path: '/api/test/me',
    auth: 'bearer',
    handler: (req) => ({ body: { auth: req.auth } }),
  },
];

// A handler that waits until the test releases it, to abort requests while they are in flight.
const gate = { entered: 0, release: () => {} };
testRoutes.push({
  method: 'GET',
  path: '/api/test/slow',
  handler: async () => {
    gate.entered++;
    await new Promise<void>((r) => {
      gate.release = r;
    });
    return { body: { late: true } };
  },
});

const logLines: string[] = [];
const status = fakeStatus({ tick: 42, lastMs: 3.5, p99Ms: 9.25, players: 7 });
let s: TestServer;

beforeAll(async () => {
  const capture = new Writable({
    write(chunk, _enc, cb) {
      logLines.push(String(chunk));
      cb();
    },
  });
  s = await startTestServer(
    { COMMIT_HASH: 'abc123' },
    {
      routes: testRoutes,
      status: status.source,
      logger: createLogger({ ...testConfig(), logLevel: 'debug' }, capture),
      verifyBearer: async (token) =>
        token === 'good-token' ? { accountId: 'acc-1', anonymous: false } : null,
    },
  );
});
afterAll(() => s.stop());

describe('fixed responses (contract §3.5)', () => {
  it('/health: {status, timestamp, version} with the commit hash appended', async () => {
    const res = await fetch(`${s.url}/health`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
    const body = await jsonOf(res);
    expect(Object.keys(body).sort()).toEqual(['status', 'timestamp', 'version']);
    expect(body.status).toBe('ok');
    expect(new Date(body.timestamp).toISOString()).toBe(body.timestamp);
    expect(body.version).toBe(`${PACKAGE_VERSION}+abc123`);
  });

  it('/health without COMMIT_HASH is the bare package version', async () => {
    const plain = await startTestServer();
    try {
      expect((await jsonOf(await fetch(`${plain.url}/health`))).version).toBe(PACKAGE_VERSION);
    } finally {
      await plain.stop();
    }
  });

  it('/status reports the cached tick, players and database; 503 with the same shape when the database is down', async () => {
    const ok = await fetch(`${s.url}/status`);
    expect(ok.status).toBe(200);
    const body = await jsonOf(ok);
    expect(body).toEqual({
      status: 'ok',
      uptimeSeconds: expect.any(Number),
      tick: { number: 42, lastMs: 3.5, p99Ms: 9.25 },
      playersOnline: 7,
      database: 'ok',
    });
    status.state.dbOk = false;
    try {
      const down = await fetch(`${s.url}/status`);
      expect(down.status).toBe(503);
      const downBody = await jsonOf(down);
      expect(Object.keys(downBody).sort()).toEqual(Object.keys(body).sort());
      expect(downBody.database).toBe('down');
    } finally {
      status.state.dbOk = true;
    }
  });

  it('/metrics serves the Prometheus text format with the HTTP counter (on the metrics port)', async () => {
    const res = await fetch(`http://127.0.0.1:${s.server.metricsPort}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    const text = await res.text();
    expect(text).toMatch(/^game_http_requests_total\{method="GET",route="\/health",status="200"\} \d+$/m);
    expect(text).toContain('game_ws_connections');
  });

  it('HEAD /health answers headers only', async () => {
    const res = await fetch(`${s.url}/health`, { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('');
  });
});

describe('problem+json errors (contract §3.1)', () => {
  it('404 for an unknown path', async () => {
    const res = await fetch(`${s.url}/no/such/thing`);
    expect(res.status).toBe(404);
    expect(await problemOf(res)).toEqual({
      type: 'urn:hyperscape:problem:not-found',
      title: 'Not Found',
      status: 404,
      detail: expect.any(String),
      code: 'NOT_FOUND',
    });
  });

  it('405 with Allow for a known path and a wrong method', async () => {
    const res = await fetch(`${s.url}/health`, { method: 'DELETE' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    expect(await problemOf(res)).toMatchObject({ status: 405, code: 'METHOD_NOT_ALLOWED' });
  });

  it('400 for malformed JSON', async () => {
    const res = await fetch(`${s.url}/api/test/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"a":',
    });
    expect(res.status).toBe(400);
    expect(await problemOf(res)).toMatchObject({ status: 400, code: 'BAD_REQUEST' });
  });

  it('a valid JSON body reaches the handler', async () => {
    const res = await fetch(`${s.url}/api/test/echo`, {
      method: 'POST',
      body: JSON.stringify({ a: [1, 'x'] }),
    });
    expect(res.status).toBe(200);
    expect(await jsonOf(res)).toEqual({ body: { a: [1, 'x'] } });
  });

  it('413 when Content-Length is over the route limit', async () => {
    const res = await fetch(`${s.url}/api/test/echo`, {
      method: 'POST',
      body: JSON.stringify({ a: 'x'.repeat(2000) }),
    });
    expect(res.status).toBe(413);
    expect(await problemOf(res)).toMatchObject({ status: 413, code: 'PAYLOAD_TOO_LARGE' });
  });

  it('413 when a chunked body without Content-Length grows over the limit', async () => {
    const chunk = `${'x'.repeat(600)}`;
    const body = `${(600).toString(16)}\r\n${chunk}\r\n${(600).toString(16)}\r\n${chunk}\r\n0\r\n\r\n`;
    const raw = await rawHttp(
      s.port,
      `POST /api/test/echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Type: application/json\r\n\r\n${body}`,
    );
    expect(raw).toMatch(/^HTTP\/1\.1 413 /);
    expect(raw).toContain('"code":"PAYLOAD_TOO_LARGE"');
  });

  it('zod failures in a handler are 400, HttpErrors keep their status', async () => {
    const bad = await fetch(`${s.url}/api/test/validated`, { method: 'POST', body: '{"n":1.5}' });
    expect(bad.status).toBe(400);
    expect(await problemOf(bad)).toMatchObject({ code: 'BAD_REQUEST' });
    const good = await fetch(`${s.url}/api/test/validated`, { method: 'POST', body: '{"n":2}' });
    expect(good.status).toBe(201);
    const conflict = await fetch(`${s.url}/api/test/teapot`);
    expect(conflict.status).toBe(409);
    expect(await problemOf(conflict)).toMatchObject({ code: 'CONFLICT', detail: 'already there' });
  });

  it('500 never carries the internal message or a stack', async () => {
    const res = await fetch(`${s.url}/api/test/boom`);
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(JSON.parse(text)).toMatchObject({ status: 500, code: 'INTERNAL' });
    expect(text).not.toContain('hunter2');
    expect(text).not.toContain('internal.ts');
  });
});

describe('routing and bearer authentication', () => {
  it('path parameters and the query reach the handler', async () => {
    const res = await fetch(`${s.url}/api/test/items/sword%20of%20x?q=1`);
    expect(await jsonOf(res)).toEqual({ params: { id: 'sword of x' }, q: '1' });
  });

  it('401 UNAUTHORIZED without a token or with a bad one; the handler sees req.auth with a good one', async () => {
    for (const headers of [
      {},
      { authorization: 'Bearer nope' },
      { authorization: 'Basic good-token' },
    ] as Record<string, string>[]) {
      const res = await fetch(`${s.url}/api/test/me`, { headers });
      expect(res.status).toBe(401);
      expect(await problemOf(res)).toMatchObject({ code: 'UNAUTHORIZED' });
    }
    const ok = await fetch(`${s.url}/api/test/me`, { headers: { authorization: 'Bearer good-token' } });
    expect(ok.status).toBe(200);
    expect(await jsonOf(ok)).toEqual({ auth: { accountId: 'acc-1', anonymous: false } });
  });
});

describe('request log', () => {
  it('one line per request with id, method, path (no query), status and duration; no token anywhere', async () => {
    const res = await fetch(`${s.url}/api/test/items/7?authToken=query-secret-123`, {
      headers: { authorization: 'Bearer header-secret-456' },
    });
    const id = res.headers.get('x-request-id');
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const line = logLines.map((l) => JSON.parse(l)).find((l) => l.reqId === id);
    expect(line).toMatchObject({
      method: 'GET',
      path: '/api/test/items/7',
      status: 200,
      ms: expect.any(Number),
    });
    const all = logLines.join('');
    expect(all).not.toContain('query-secret-123');
    expect(all).not.toContain('header-secret-456');
  });
});

describe('aborted requests', () => {
  it('a response whose client went away is never written; the server carries on', async () => {
    const ac = new AbortController();
    const pending = fetch(`${s.url}/api/test/slow`, { signal: ac.signal }).catch((e: Error) => e.name);
    await expect.poll(() => gate.entered).toBe(1);
    ac.abort();
    expect(await pending).toBe('AbortError');
    await new Promise((r) => setTimeout(r, 50));
    gate.release(); // the handler completes after the abort: writing now would crash uWS
    await new Promise((r) => setTimeout(r, 50));
    expect((await fetch(`${s.url}/health`)).status).toBe(200);
    const line = logLines.map((l) => JSON.parse(l)).find((l) => l.path === '/api/test/slow');
    expect(line).toMatchObject({ status: 499 });
  });

  it('a client that disconnects mid-body does not leave the request hanging', async () => {
    const before = logLines.length;
    await rawHttp(s.port, 'POST /api/test/echo HTTP/1.1\r\nHost: x\r\nContent-Length: 500\r\n\r\n{"a":', 200);
    await expect
      .poll(() =>
        logLines
          .slice(before)
          .some((l) => l.includes('"path":"/api/test/echo"') && l.includes('"status":499')),
      )
      .toBe(true);
    expect(logLines.slice(before).join('')).not.toContain('request failed');
  });
});
