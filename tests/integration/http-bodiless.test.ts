import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manifestRoutes } from '../../net/routes/manifests.ts';
import { REPO_ROOT } from '../../src/server.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

/**
 * Every response without a body (204, 304, HEAD) read by Node's own HTTP client with its default,
 * strict llhttp parser, over ONE kept-alive connection: a wrong Content-Length (uWS wrote
 * 9223372036854775808 for `endWithoutBody(undefined)`) makes the parser fail, or desynchronises the
 * connection so that the next response on it cannot be read.
 */

let s: TestServer;
let agent: http.Agent;

beforeAll(async () => {
  s = await startTestServer(
    {},
    { routes: manifestRoutes(path.join(REPO_ROOT, 'world', 'assets', 'manifests')) },
  );
  agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
});

afterAll(async () => {
  agent.destroy();
  await s?.stop();
});

interface StrictResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** The socket it came on: the same one for every request of this file (keep-alive). */
  socket: unknown;
}

function strict(
  method: string,
  pathname: string,
  headers: Record<string, string> = {},
): Promise<StrictResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port: s.port, method, path: pathname, headers, agent, insecureHTTPParser: false },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => {
          body += c;
        });
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body, socket: req.socket }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('bodiless responses, read by a strict HTTP parser', () => {
  it('204, 304 and HEAD answers carry no bogus Content-Length and keep the connection usable', async () => {
    const first = await strict('GET', '/health');
    expect(first.status).toBe(200);
    const healthLength = Buffer.byteLength(first.body);

    const cases: {
      name: string;
      method: string;
      path: string;
      headers?: Record<string, string>;
      status: number;
    }[] = [
      {
        name: 'preflight from an allowed origin',
        method: 'OPTIONS',
        path: '/api/x',
        status: 204,
        headers: { origin: 'http://localhost:3333', 'access-control-request-method': 'POST' },
      },
      { name: 'OPTIONS without an origin', method: 'OPTIONS', path: '/health', status: 204 },
      {
        name: 'OPTIONS from a refused origin',
        method: 'OPTIONS',
        path: '/health',
        status: 204,
        headers: { origin: 'https://evil.example' },
      },
    ];
    const manifest = await strict('GET', '/manifests/npcs.json');
    expect(manifest.status).toBe(200);
    const etag = manifest.headers.etag as string;
    cases.push({
      name: 'manifest not modified',
      method: 'GET',
      path: '/manifests/npcs.json',
      status: 304,
      headers: { 'if-none-match': etag },
    });

    for (const c of cases) {
      const res = await strict(c.method, c.path, c.headers);
      expect(res.status, c.name).toBe(c.status);
      expect(res.body, c.name).toBe('');
      // RFC 9110: a 204 has no Content-Length; a 304's would have to be the full representation's.
      expect(res.headers['content-length'], c.name).toBeUndefined();
      expect(res.headers['transfer-encoding'], c.name).toBeUndefined();
      expect(res.socket, `${c.name}: same kept-alive connection`).toBe(first.socket);
    }

    // HEAD: the length GET would send, no body.
    const head = await strict('HEAD', '/health');
    expect(head.status).toBe(200);
    expect(head.headers['content-length']).toBe(String(healthLength));
    expect(head.body).toBe('');
    const head404 = await strict('HEAD', '/nothing-here');
    expect(head404.status).toBe(404);
    expect(head404.body).toBe('');

    // The connection still parses a full response after all of them.
    const last = await strict('GET', '/health');
    expect(last.status).toBe(200);
    expect(JSON.parse(last.body)).toMatchObject({ status: 'ok' });
    expect(last.socket).toBe(first.socket);
  });
});
