import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Command } from '../../ecs/core/commands.ts';
import { jsonOf } from '../helpers/http.ts';
import {
  api,
  type IdentityTestServer,
  kitProblems,
  startIdentityServer,
} from '../helpers/identity-server.ts';
import { TestWsClient } from '../helpers/ws-client.ts';

/**
 * WebSocket authentication over a real socket (contract §1.2), anonymous mode, real persistence.
 * The world is a FakeWorld: it records commands and saves on leave.
 */

let s: IdentityTestServer;
const clients: TestWsClient[] = [];

beforeAll(async () => {
  s = await startIdentityServer({ DISABLE_RATE_LIMIT: 'true', WS_AUTH_TIMEOUT_SECONDS: '1' });
});
afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  await s.identity.ws.idle();
});
afterAll(async () => {
  await s?.stop();
});

const connect = async (opts: Parameters<typeof TestWsClient.connect>[1] = {}) => {
  const c = await TestWsClient.connect(s.wsUrl, { encoding: 'json', ...opts });
  clients.push(c);
  return c;
};
const anonymous = async (): Promise<{ token: string; accountId: string }> =>
  jsonOf(await api(s.url, 'POST', '/api/auth/anonymous'));
const createCharacter = async (token: string, name: string): Promise<string> =>
  (await jsonOf(await api(s.url, 'POST', '/api/character/create', { token, body: { name } }))).character.id;
const joinsOf = (characterId: string) =>
  s.world.commandsOf(characterId).filter((c): c is Extract<Command, { type: 'join' }> => c.type === 'join');
/** Logins and logouts finish asynchronously after the socket event: wait until none is in flight. */
const settle = () => s.identity.ws.idle();

describe('before authentication', () => {
  it('any other event gets NOT_AUTHENTICATED and the socket stays open for authenticate', async () => {
    const { token, accountId } = await anonymous();
    const c = await connect();
    c.send('player:move', { x: 1, z: 2 });
    const err = await c.next('error');
    expect(err.payload).toMatchObject({ code: 'NOT_AUTHENTICATED', event: 'player:move' });
    c.send('player:chat', { message: 'hi' });
    expect((await c.next('error')).payload.code).toBe('NOT_AUTHENTICATED');
    c.send('authenticate', { authToken: token });
    const res = await c.next('authResult');
    expect(res.payload).toMatchObject({ success: true, accountId, anonymous: true });
    expect(c.closeCode).toBeUndefined();
  });

  it('closes with 4001 when nothing authenticates within the window', async () => {
    const c = await connect();
    c.send('player:move', { x: 1, z: 2 });
    await c.next('error');
    expect(await c.waitClose(5000)).toBe(4001);
  });

  it('a bad token: authResult failure, then close 4001 (message and query forms)', async () => {
    const c = await connect();
    c.send('authenticate', { authToken: 'not-a-token' });
    const res = await c.next('authResult');
    expect(res.payload).toEqual({ success: false, error: 'invalid token' });
    expect(await c.waitClose()).toBe(4001);

    const q = await connect({ query: { authToken: 'not-a-token' } });
    expect((await q.next('authResult')).payload.success).toBe(false);
    expect(await q.waitClose()).toBe(4001);
  });
});

describe('entering the world', () => {
  it('authResult carries a session token valid as a bearer token; the world gets the join', async () => {
    const { token, accountId } = await anonymous();
    const characterId = await createCharacter(token, 'Joiner');
    const c = await connect({ query: { authToken: token } });
    const res = await c.next('authResult');
    expect(res.payload).toEqual({
      success: true,
      accountId,
      characterId,
      anonymous: true,
      sessionToken: expect.any(String),
    });
    const list = await api(s.url, 'GET', '/api/character/list', { token: res.payload.sessionToken });
    expect(list.status).toBe(200);
    const [join] = joinsOf(characterId);
    expect(join).toMatchObject({
      type: 'join',
      accountId,
      origin: 'authenticate',
      state: { id: characterId },
    });
    expect(s.world.isInWorld(characterId)).toBe(true);
    const rows = await s.db.query<{ logoutAt: Date | null }>(
      'SELECT "logoutAt" FROM "playerSessions" WHERE "characterId" = $1',
      [characterId],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]?.logoutAt).toBeNull();

    c.close();
    await c.waitClose();
    await settle();
    expect(s.world.commandsOf(characterId).at(-1)).toMatchObject({ type: 'leave', reason: 'disconnect' });
    expect(s.world.isInWorld(characterId)).toBe(false);
    const after = await s.db.query<{ logoutAt: Date | null }>(
      'SELECT "logoutAt" FROM "playerSessions" WHERE "characterId" = $1',
      [characterId],
    );
    expect(after[0]?.logoutAt).toBeInstanceOf(Date);
  });

  it('anonymous authenticate without a token creates an account that a reconnect finds again', async () => {
    const c = await connect();
    c.send('authenticate', { name: 'Newcomer' });
    const first = (await c.next('authResult')).payload;
    expect(first).toMatchObject({ success: true, anonymous: true });
    const state = await s.persistence.port.loadCharacter(first.characterId);
    expect(state?.name).toBe('Newcomer');
    expect((await s.persistence.port.getUser(first.accountId))?.anonymous).toBe(true);
    c.close();
    await c.waitClose();
    await settle();

    const again = await connect({ encoding: 'msgpack' });
    again.send('authenticate', { authToken: first.sessionToken });
    const second = (await again.next('authResult')).payload;
    expect(second).toMatchObject({
      success: true,
      accountId: first.accountId,
      characterId: first.characterId,
    });
  });

  it('without characterId or name: the most recently played character, or a generated one', async () => {
    const { token } = await anonymous();
    const c = await connect({ query: { authToken: token } });
    const res = (await c.next('authResult')).payload;
    const created = await s.persistence.port.loadCharacter(res.characterId);
    expect(created?.name).toMatch(/^[A-Za-z]+\d+$/);
    expect(created?.name.length).toBeLessThanOrEqual(12);
    // The generated character got the first template's starter kit.
    const kit = s.content.templates[0]!;
    expect(kitProblems(created!.inventory, kit, s.content)).toEqual([]);
    expect(created?.coins).toBe(kit.coins);
    c.close();
    await c.waitClose();
    await settle();

    const other = await createCharacter(token, 'Olderalt');
    await api(s.url, 'POST', `/api/character/${other}/select`, { token });
    const d = await connect({ query: { authToken: token } });
    expect((await d.next('authResult')).payload.characterId).toBe(other);
  });

  it("another account's character: authResult failure and close 4003", async () => {
    const alice = await anonymous();
    const bob = await anonymous();
    const aliceChar = await createCharacter(alice.token, 'Alicette');
    const c = await connect();
    c.send('authenticate', { authToken: bob.token, characterId: aliceChar });
    expect((await c.next('authResult')).payload).toMatchObject({ success: false });
    expect(await c.waitClose()).toBe(4003);
    expect(joinsOf(aliceChar)).toHaveLength(0);
  });

  it('a banned account is closed with 4003', async () => {
    const { token, accountId } = await anonymous();
    await s.db.query('UPDATE users SET banned = true WHERE id = $1', [accountId]);
    const c = await connect({ query: { authToken: token } });
    expect((await c.next('authResult')).payload).toEqual({ success: false, error: 'account is banned' });
    expect(await c.waitClose()).toBe(4003);
  });

  it('a refused new-character name fails the login with its reason (4001)', async () => {
    const { token } = await anonymous();
    const c = await connect();
    c.send('authenticate', { authToken: token, name: 'bad name!' });
    const res = (await c.next('authResult')).payload;
    expect(res.success).toBe(false);
    expect(res.error).toMatch(/letters/);
    expect(await c.waitClose()).toBe(4001);
  });

  it('a reserved name is refused for a new character over the socket, with a token or anonymously (4001)', async () => {
    const { token } = await anonymous();
    for (const req of [
      { authToken: token, name: 'Moderator' },
      { name: 'Announcement' },
      { name: 'sys_tem' },
    ]) {
      const c = await connect();
      c.send('authenticate', req);
      const res = (await c.next('authResult')).payload;
      expect(res).toEqual({ success: false, error: expect.stringMatching(/reserved/) });
      expect(await c.waitClose()).toBe(4001);
    }
  });
});

describe('takeover', () => {
  it('the old connection leaves, is saved and closed with 4002 before the new one joins', async () => {
    const { token } = await anonymous();
    const characterId = await createCharacter(token, 'Twice');
    const first = await connect({ query: { authToken: token, characterId } });
    await first.next('authResult');
    // The character moved in the world since it was loaded: the takeover must carry that over.
    s.world.inWorld.get(characterId)!.position = { x: 42, y: 0, z: 43 };

    const second = await connect({ encoding: 'msgpack' });
    second.send('authenticate', { authToken: token, characterId });
    const res = await second.next('authResult');
    expect(res.payload).toMatchObject({ success: true, characterId });
    expect(await first.waitClose()).toBe(4002);
    await settle();

    const cmds = s.world
      .commandsOf(characterId)
      .map((c) => (c.type === 'leave' ? `leave:${c.reason}` : c.type));
    expect(cmds).toEqual(['join', 'leave:takeover', 'join']);
    const joins = joinsOf(characterId);
    expect(joins[1]?.state.position).toEqual({ x: 42, y: 0, z: 43 });
    expect(s.world.inWorld.size).toBeGreaterThan(0);
    expect(s.world.isInWorld(characterId)).toBe(true);
    // The old session row is closed, the new one open.
    const rows = await s.db.query<{ logoutAt: Date | null }>(
      'SELECT "logoutAt" FROM "playerSessions" WHERE "characterId" = $1 ORDER BY "loginAt"',
      [characterId],
    );
    expect(rows.map((r) => r.logoutAt === null)).toEqual([false, true]);
    // The old socket's own close does not make the character leave a second time.
    expect(s.world.leaves.filter((l) => l.characterId === characterId)).toHaveLength(1);
  });

  it('three connections at once: one ends in the world, the character is never there twice', async () => {
    const { token } = await anonymous();
    const characterId = await createCharacter(token, 'Thrice');
    const conns = await Promise.all(
      [0, 1, 2].map(() => connect({ query: { authToken: token, characterId } })),
    );
    const results = await Promise.all(conns.map((c) => c.next('authResult')));
    expect(results.every((r) => r.payload.success)).toBe(true);
    await settle();
    // The login handled last stays and the two before it are taken over (4002). Which socket that is
    // depends on the order the server took the three opens in, not on the order they were started.
    const closed = () => conns.filter((c) => c.closeCode !== undefined);
    for (const end = Date.now() + 10_000; closed().length < 2 && Date.now() < end; )
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(closed().map((c) => c.closeCode)).toEqual([4002, 4002]);
    expect(conns.filter((c) => c.closeCode === undefined)).toHaveLength(1);
    const cmds = s.world.commandsOf(characterId).map((c) => c.type);
    expect(cmds).toEqual(['join', 'leave', 'join', 'leave', 'join']);
  });
});

describe('takeover when the old save fails', () => {
  it('the old connection is still closed with 4002 and the new login fails: never two sessions', async () => {
    const { token } = await anonymous();
    const characterId = await createCharacter(token, 'Fragile');
    const first = await connect({ query: { authToken: token, characterId } });
    await first.next('authResult');
    s.world.failNextLeave = true;
    const second = await connect({ query: { authToken: token, characterId } });
    expect((await second.next('authResult')).payload).toEqual({ success: false, error: 'login failed' });
    expect(await first.waitClose()).toBe(4002);
    expect(await second.waitClose()).toBe(4001);
    await settle();
    expect(s.identity.registry.connection(characterId)).toBeUndefined();
    expect(joinsOf(characterId)).toHaveLength(1);
  });
});

describe('after authentication', () => {
  it('messages become commands of the session character', async () => {
    const { token } = await anonymous();
    const c = await connect({ query: { authToken: token } });
    const { characterId } = (await c.next('authResult')).payload;
    c.send('player:move', { x: 7, z: 8, run: true });
    c.send('tradeAddItem', { tradeId: 't1', coins: 5 });
    c.send('player:chat', { message: '/tp 1 2' });
    c.send('player:chat', { message: '   ' });
    expect((await c.next('error')).payload).toMatchObject({ code: 'BAD_MESSAGE', event: 'player:chat' });
    const types = s.world.commandsOf(characterId).map((x) => x.type);
    expect(types).toEqual(['join', 'move', 'tradeSetCoins', 'chatCommand']);
    expect(s.world.commandsOf(characterId)[1]).toEqual({
      type: 'move',
      characterId,
      origin: 'player:move',
      x: 7,
      z: 8,
      run: true,
    });
  });

  it('/admin: a wrong code is FORBIDDEN, the right one enables admin with a system message', async () => {
    const { token } = await anonymous();
    const c = await connect({ query: { authToken: token } });
    const { characterId } = (await c.next('authResult')).payload;
    c.send('player:chat', { message: '/admin wrong-code' });
    expect((await c.next('error')).payload).toMatchObject({ code: 'FORBIDDEN', event: 'player:chat' });
    expect(s.world.commandsOf(characterId).some((x) => x.type === 'setAdmin')).toBe(false);
    c.send('player:chat', { message: '/admin test-admin-code' });
    const msg = await c.next('chat:message');
    expect(msg.payload).toMatchObject({ channel: 'system', fromId: 'system' });
    expect(s.world.commandsOf(characterId).filter((x) => x.type === 'setAdmin')).toHaveLength(1);
    // The code never reaches the simulation as a chat line or a command argument.
    expect(JSON.stringify(s.world.commands)).not.toContain('test-admin-code');
  });
});

describe('the authentication window is shared with /api/auth/* (rate limits on)', () => {
  let limited: IdentityTestServer;
  beforeAll(async () => {
    limited = await startIdentityServer({ WS_AUTH_TIMEOUT_SECONDS: '5' });
  });
  afterAll(async () => {
    await limited?.stop();
  });

  it('wrong /admin codes use it up; then even the right code, HTTP sign-ups and socket sign-ups are refused', async () => {
    const { token } = await jsonOf(await api(limited.url, 'POST', '/api/auth/anonymous')); // attempt 1
    const c = await TestWsClient.connect(limited.wsUrl, { encoding: 'json', query: { authToken: token } });
    clients.push(c);
    await c.next('authResult');
    for (let i = 0; i < 9; i++) {
      c.send('player:chat', { message: `/admin guess-${i}` }); // attempts 2..10
      expect((await c.next('error')).payload.code).toBe('FORBIDDEN');
    }
    c.send('player:chat', { message: '/admin test-admin-code' });
    const refused = (await c.next('error')).payload;
    expect(refused).toMatchObject({ code: 'FORBIDDEN' });
    expect(refused.message).toMatch(/too many/);
    expect((await api(limited.url, 'POST', '/api/auth/anonymous')).status).toBe(429);

    const d = await TestWsClient.connect(limited.wsUrl, { encoding: 'json' });
    clients.push(d);
    d.send('authenticate', {});
    expect((await d.next('authResult')).payload).toEqual({
      success: false,
      error: 'too many authentication attempts',
    });
    expect(await d.waitClose()).toBe(4001);
  });
});
