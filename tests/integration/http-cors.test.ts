import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';

// The full rule-by-rule matrix is in tests/unit/cors.test.ts; here the real server's headers.
let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({
    PUBLIC_APP_URL: 'https://play.example.com',
    AGENT_URL: 'http://localhost:4001',
  });
});
afterAll(() => s.stop());

const FOUR = {
  'access-control-allow-credentials': 'true',
  'access-control-allow-methods': 'GET, PUT, POST, DELETE, OPTIONS, PATCH',
  'access-control-allow-headers': 'Content-Type, Authorization, X-Requested-With',
};

describe('CORS on the real server (contract §3.4)', () => {
  it.each([
    'http://localhost:3333',
    'https://127.0.0.1:8443',
    'https://hyperscape.club',
    'https://pr-7.hyperscape.pages.dev',
    'https://staging.up.railway.app',
    'https://client.farcaster.xyz',
    'https://warpcast.com',
    'https://auth.privy.io',
    'https://play.example.com',
  ])('GET from allowed %s echoes the origin with the four headers', async (origin) => {
    const res = await fetch(`${s.url}/health`, { headers: { origin } });
    expect(res.headers.get('access-control-allow-origin')).toBe(origin);
    for (const [k, v] of Object.entries(FOUR)) expect(res.headers.get(k)).toBe(v);
    expect(res.headers.get('vary')).toBe('Origin');
  });

  it.each(['https://evil.example', 'http://hyperscape.club', 'https://play.example.com.evil.io'])(
    'GET from refused %s has no Access-Control-Allow-Origin',
    async (origin) => {
      const res = await fetch(`${s.url}/health`, { headers: { origin } });
      expect(res.status).toBe(200);
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
      expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    },
  );

  it('preflight from an allowed origin: 204 with the four headers, never *', async () => {
    const res = await fetch(`${s.url}/api/v1/player`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://www.hyperscape.club',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type',
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('https://www.hyperscape.club');
    for (const [k, v] of Object.entries(FOUR)) expect(res.headers.get(k)).toBe(v);
    expect(await res.text()).toBe('');
  });

  it('preflight from a refused origin carries no CORS headers', async () => {
    const res = await fetch(`${s.url}/api/v1/player`, {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect(res.headers.get('access-control-allow-methods')).toBeNull();
  });

  it('error responses carry CORS headers too, so browsers can read the problem', async () => {
    const res = await fetch(`${s.url}/missing`, { headers: { origin: 'http://localhost:3333' } });
    expect(res.status).toBe(404);
    expect(res.headers.get('access-control-allow-origin')).toBe('http://localhost:3333');
  });
});
