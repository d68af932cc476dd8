import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { jsonOf } from '../helpers/http.ts';
import { api, type IdentityTestServer, startIdentityServer } from '../helpers/identity-server.ts';
import { createTestIdp, TEST_APP_ID, TEST_ISSUER, type TestIdp } from '../helpers/idp.ts';
import { TestWsClient } from '../helpers/ws-client.ts';

/**
 * WebSocket authentication with an identity provider configured (IDP_VERIFICATION_KEY as a PEM key):
 * provider tokens and server session tokens both enter; no anonymous entry.
 */

let idp: TestIdp;
let s: IdentityTestServer;
const clients: TestWsClient[] = [];

beforeAll(async () => {
  idp = await createTestIdp();
  s = await startIdentityServer({
    IDP_APP_ID: TEST_APP_ID,
    PUBLIC_IDP_APP_ID: TEST_APP_ID,
    IDP_ISSUER: TEST_ISSUER,
    IDP_VERIFICATION_KEY: idp.publicPem,
    DISABLE_RATE_LIMIT: 'true',
  });
});
afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  await s.identity.ws.idle();
});
afterAll(async () => {
  await s?.stop();
});

const connect = async (query: Record<string, string> = {}) => {
  const c = await TestWsClient.connect(s.wsUrl, { encoding: 'json', query });
  clients.push(c);
  return c;
};

it('an identity-provider token enters the world as that subject, non-anonymous', async () => {
  const c = await connect({ authToken: await idp.sign({ sub: 'did:privy:ws-user' }), name: 'Provided' });
  const res = (await c.next('authResult')).payload;
  expect(res).toMatchObject({ success: true, anonymous: false });
  expect((await s.persistence.port.loadCharacter(res.characterId))?.name).toBe('Provided');
  // The same subject logging in over HTTP is the same account.
  const http = await jsonOf(
    await api(s.url, 'POST', '/api/auth/login', {
      body: { idpToken: await idp.sign({ sub: 'did:privy:ws-user' }) },
    }),
  );
  expect(http.accountId).toBe(res.accountId);
});

it('a server session token from /api/auth/login enters too', async () => {
  const { token, accountId } = await jsonOf(
    await api(s.url, 'POST', '/api/auth/login', {
      body: { idpToken: await idp.sign({ sub: 'did:privy:other' }) },
    }),
  );
  const c = await connect();
  c.send('authenticate', { authToken: token });
  expect((await c.next('authResult')).payload).toMatchObject({ success: true, accountId, anonymous: false });
});

it('authenticate without a token is refused with 4001 (no anonymous mode)', async () => {
  const c = await connect();
  c.send('authenticate', {});
  expect((await c.next('authResult')).payload).toEqual({ success: false, error: 'authToken is required' });
  expect(await c.waitClose()).toBe(4001);
});

it('an expired provider token is refused with 4001', async () => {
  const c = await connect({ authToken: await idp.sign({ expiresIn: -60 }) });
  expect((await c.next('authResult')).payload.success).toBe(false);
  expect(await c.waitClose()).toBe(4001);
});
