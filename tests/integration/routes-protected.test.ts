import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonOf, problemOf } from '../helpers/http.ts';
import { api, type IdentityTestServer, startIdentityServer } from '../helpers/identity-server.ts';

/**
 * Every protected prefix of contract §3.2 answers 401 without a valid token, and 403 when a valid
 * account reaches for another account's character or agent.
 */

let s: IdentityTestServer;
let alice: { token: string; accountId: string };
let bob: { token: string; accountId: string };
let aliceChar: string;
const AGENT = 'agent-of-alice';

const anonymous = async () => jsonOf(await api(s.url, 'POST', '/api/auth/anonymous'));

beforeAll(async () => {
  s = await startIdentityServer({ DISABLE_RATE_LIMIT: 'true' });
  alice = await anonymous();
  bob = await anonymous();
  const created = await api(s.url, 'POST', '/api/character/create', {
    token: alice.token,
    body: { name: 'Alicia' },
  });
  expect(created.status).toBe(201);
  aliceChar = (await jsonOf(created)).character.id;
  await s.persistence.port.createAgentMapping({
    agentId: AGENT,
    accountId: alice.accountId,
    characterId: aliceChar,
    name: 'Alicia',
  });
});
afterAll(async () => {
  await s?.stop();
});

type Route = [method: string, path: (ids: { c: string; a: string }) => string, body?: unknown];
const ROUTES: Route[] = [
  ['GET', () => '/api/v1/player'],
  ['POST', () => '/api/v1/player', { name: 'Someone' }],
  ['GET', () => '/api/v1/world'],
  ['GET', () => '/api/v1/world/areas'],
  ['GET', ({ c }) => `/api/characters/${c}/skills`],
  ['GET', ({ c }) => `/api/characters/${c}/position`],
  ['GET', () => '/api/character/list'],
  ['POST', () => '/api/character/create', { name: 'Nobody' }],
  ['DELETE', ({ c }) => `/api/character/${c}`],
  ['POST', ({ c }) => `/api/character/${c}/select`],
  ['GET', () => '/api/template/list'],
  ['GET', () => '/api/template/wayfarer'],
  ['GET', ({ c }) => `/api/player/${c}/inventory`],
  ['GET', ({ c }) => `/api/player/${c}/equipment`],
  ['GET', ({ c }) => `/api/player/${c}/bank`],
  ['GET', ({ a }) => `/api/agents/mapping/${a}`],
  ['GET', ({ a }) => `/api/agent/${a}`],
  ['GET', ({ a }) => `/api/agent/${a}/state`],
  ['GET', ({ a }) => `/api/agents/${a}/goal`],
  ['POST', ({ a }) => `/api/agents/${a}/goal/resume`],
  ['GET', ({ a }) => `/api/agents/${a}/quick-actions`],
];

describe('401 without a valid token', () => {
  const tokens: [string, string | undefined][] = [
    ['no Authorization header', undefined],
    ['a garbage token', 'garbage'],
    ['a token signed by another secret', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl'],
  ];
  describe.each(tokens)('%s', (_name, token) => {
    it.each(ROUTES.map((r) => [r[0], r[1]({ c: 'c', a: 'a' }), r] as const))(
      '%s %s',
      async (_m, _p, route) => {
        const [method, path, body] = route;
        const res = await api(s.url, method, path({ c: aliceChar, a: AGENT }), {
          ...(token !== undefined ? { token } : {}),
          ...(body !== undefined ? { body } : {}),
        });
        expect(res.status).toBe(401);
        expect(await problemOf(res)).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
      },
    );
  });

  it('covers every protected prefix', () => {
    const prefixes = new Set(ROUTES.map(([, p]) => p({ c: 'c', a: 'a' }).split('/').slice(0, 3).join('/')));
    expect([...prefixes].sort()).toEqual(
      [
        '/api/agent',
        '/api/agents',
        '/api/character',
        '/api/characters',
        '/api/player',
        '/api/template',
        '/api/v1',
      ].sort(),
    );
  });
});

describe("403 for another account's character or agent", () => {
  const foreign = ROUTES.filter(([, p]) => p({ c: 'CHAR', a: 'AGENT' }).match(/CHAR|AGENT/));
  it.each(foreign.map((r) => [r[0], r[1]({ c: ':characterId', a: ':agentId' }), r] as const))(
    '%s %s',
    async (_m, _p, [method, path, body]) => {
      const res = await api(s.url, method, path({ c: aliceChar, a: AGENT }), {
        token: bob.token,
        ...(body !== undefined ? { body } : {}),
      });
      expect(res.status).toBe(403);
      expect(await problemOf(res)).toMatchObject({ status: 403, code: 'FORBIDDEN' });
      // The owner is allowed on the same resource (select rather than delete, to keep it).
      if (method !== 'DELETE') {
        const own = await api(s.url, method, path({ c: aliceChar, a: AGENT }), {
          token: alice.token,
          ...(body !== undefined ? { body } : {}),
        });
        expect(own.status).toBe(200);
      }
    },
  );

  it('covers the prefixes that hold per-account resources', () => {
    const prefixes = new Set(foreign.map(([, p]) => p({ c: 'c', a: 'a' }).split('/').slice(0, 3).join('/')));
    expect([...prefixes].sort()).toEqual(
      ['/api/agent', '/api/agents', '/api/character', '/api/characters', '/api/player'].sort(),
    );
  });

  it('the character survived the refused delete', async () => {
    const list = await jsonOf(await api(s.url, 'GET', '/api/character/list', { token: alice.token }));
    expect(list.characters.map((c: { id: string }) => c.id)).toContain(aliceChar);
  });
});

describe('404 for unknown ids', () => {
  it.each([
    ['GET', '/api/characters/no-such-character/skills'],
    ['GET', '/api/characters/no-such-character/position'],
    ['DELETE', '/api/character/no-such-character'],
    ['POST', '/api/character/no-such-character/select'],
    ['GET', '/api/player/no-such-character/inventory'],
    ['GET', '/api/template/no-such-template'],
    ['GET', '/api/agents/mapping/no-such-agent'],
    ['GET', '/api/agent/no-such-agent'],
  ])('%s %s', async (method, path) => {
    const res = await api(s.url, method, path, { token: alice.token });
    expect(res.status).toBe(404);
    expect(await problemOf(res)).toMatchObject({ code: 'NOT_FOUND' });
  });
});
