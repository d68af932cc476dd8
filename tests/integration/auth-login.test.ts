import { generateKeyPair } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonOf, problemOf } from '../helpers/http.ts';
import { api, type IdentityTestServer, startIdentityServer } from '../helpers/identity-server.ts';
import {
  createTestIdp,
  serveJwks,
  TEST_APP_ID,
  TEST_ISSUER,
  type TestIdp,
  tamperPayload,
  unsignedToken,
} from '../helpers/idp.ts';

/** POST /api/auth/login against a local ES256 identity provider, over the real server (contract §3.2). */

let idp: TestIdp;
let jwks: Awaited<ReturnType<typeof serveJwks>>;
let s: IdentityTestServer;

const idpEnv = () => ({
  IDP_APP_ID: TEST_APP_ID,
  PUBLIC_IDP_APP_ID: TEST_APP_ID,
  IDP_ISSUER: TEST_ISSUER,
  IDP_JWKS_URL: jwks.url,
});

beforeAll(async () => {
  idp = await createTestIdp();
  jwks = await serveJwks(idp.jwksJson);
  s = await startIdentityServer({ ...idpEnv(), DISABLE_RATE_LIMIT: 'true' });
});
afterAll(async () => {
  await s?.stop();
  await jwks?.close();
});

const login = (idpToken: unknown) => api(s.url, 'POST', '/api/auth/login', { body: { idpToken } });

describe('a valid identity-provider token', () => {
  it('logs in: a server session token for the account of that subject', async () => {
    const res = await login(await idp.sign({ sub: 'did:privy:alice' }));
    expect(res.status).toBe(200);
    const body = await jsonOf(res);
    expect(Object.keys(body).sort()).toEqual(['accountId', 'expiresAt', 'token']);
    expect(new Date(body.expiresAt).getTime()).toBeGreaterThan(Date.now() + 24 * 3600_000);
    // The same subject is the same account; another subject another account.
    const again = await jsonOf(await login(await idp.sign({ sub: 'did:privy:alice' })));
    expect(again.accountId).toBe(body.accountId);
    const bob = await jsonOf(await login(await idp.sign({ sub: 'did:privy:bob' })));
    expect(bob.accountId).not.toBe(body.accountId);
    // The session token is a bearer token on protected routes.
    const list = await api(s.url, 'GET', '/api/character/list', { token: body.token });
    expect(list.status).toBe(200);
    expect(await jsonOf(list)).toEqual({ characters: [] });
  });

  it('is itself accepted as a bearer token', async () => {
    const token = await idp.sign({ sub: 'did:privy:carol' });
    const res = await api(s.url, 'GET', '/api/template/list', { token });
    expect(res.status).toBe(200);
  });
});

describe('refused identity-provider tokens', () => {
  const cases: [string, () => Promise<string>][] = [
    ['wrong audience', () => idp.sign({ aud: 'not-our-app' })],
    ['wrong issuer', () => idp.sign({ iss: 'somewhere.else' })],
    ['expired', () => idp.sign({ expiresIn: -120 })],
    ['another key', async () => idp.sign({}, { key: (await generateKeyPair('ES256')).privateKey })],
    ['alg none', async () => unsignedToken()],
    ['tampered payload', async () => tamperPayload(await idp.sign({ sub: 'x' }), { sub: 'did:privy:alice' })],
  ];
  it.each(cases)('%s → 401 problem on login and as a bearer token', async (_name, make) => {
    const token = await make();
    const res = await login(token);
    expect(res.status).toBe(401);
    expect(await problemOf(res)).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
    const bearer = await api(s.url, 'GET', '/api/character/list', { token });
    expect(bearer.status).toBe(401);
  });

  it('a server session token is not an identity-provider token', async () => {
    const { token } = await jsonOf(await login(await idp.sign({ sub: 'did:privy:dave' })));
    expect((await login(token)).status).toBe(401);
  });

  it('a missing or malformed body is 400', async () => {
    for (const body of [{}, { idpToken: 42 }, { idpToken: '' }]) {
      const res = await api(s.url, 'POST', '/api/auth/login', { body });
      expect(res.status).toBe(400);
      expect(await problemOf(res)).toMatchObject({ code: 'BAD_REQUEST' });
    }
  });
});

describe('with an identity provider configured', () => {
  it('anonymous accounts are refused with 403', async () => {
    const res = await api(s.url, 'POST', '/api/auth/anonymous');
    expect(res.status).toBe(403);
    expect(await problemOf(res)).toMatchObject({ code: 'FORBIDDEN' });
  });

  it('a banned account gets 403 on login and with its existing token', async () => {
    const sub = 'did:privy:mallory';
    const { token, accountId } = await jsonOf(await login(await idp.sign({ sub })));
    await s.db.query('UPDATE users SET banned = true WHERE id = $1', [accountId]);
    const res = await login(await idp.sign({ sub }));
    expect(res.status).toBe(403);
    expect(await problemOf(res)).toMatchObject({ code: 'FORBIDDEN' });
    const bearer = await api(s.url, 'GET', '/api/character/list', { token });
    expect(bearer.status).toBe(403);
  });
});

describe('the authentication rate limit', () => {
  let limited: IdentityTestServer;
  beforeAll(async () => {
    limited = await startIdentityServer(idpEnv());
  });
  afterAll(async () => {
    await limited?.stop();
  });

  it('answers the 11th attempt in a minute with 429 and Retry-After', async () => {
    const token = await idp.sign({ sub: 'did:privy:limited' });
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) {
      const res = await api(limited.url, 'POST', '/api/auth/login', { body: { idpToken: token } });
      statuses.push(res.status);
      expect(res.headers.get('ratelimit-limit')).toBe('10');
    }
    expect(statuses).toEqual(Array(10).fill(200));
    const eleventh = await api(limited.url, 'POST', '/api/auth/login', { body: { idpToken: token } });
    expect(eleventh.status).toBe(429);
    expect(Number(eleventh.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
