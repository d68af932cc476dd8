import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../lib/logger.ts';
import { serverEvents } from '../../net/protocol/server-events.ts';
import { REPO_ROOT } from '../../src/server.ts';
import { startWorldServer, type WorldServer } from '../../src/world-server.ts';
import { api } from '../helpers/identity-server.ts';
import { testConfig } from '../helpers/server.ts';
import { TestWsClient, type WsMessage } from '../helpers/ws-client.ts';

/**
 * Friends over real sockets: the real server (uWS, sessions, PGlite on disk, the social bridge and the
 * local messaging port) with a fast tick. Requests to a player who is offline, requests crossing,
 * presence across a takeover (4002), the lists after a restart, and GET /api/player/:id/friends.
 */

const TICK_MS = 50;
let worldDir: string;
let srv: WorldServer;
const clients: TestWsClient[] = [];
const config = () =>
  testConfig({
    WORLD: worldDir,
    TICK_MS: String(TICK_MS),
    JWT_SECRET: 'integration-test-secret-0123456789-abcdefghij',
    DISABLE_RATE_LIMIT: 'true',
  });
const start = async () => {
  const c = config();
  srv = await startWorldServer(c, createLogger(c), {
    manifestsDir: path.join(REPO_ROOT, 'world', 'assets', 'manifests'),
    publicDir: '/nonexistent/public',
  });
};
const base = () => `http://127.0.0.1:${srv.port}`;

beforeAll(async () => {
  worldDir = mkdtempSync(path.join(os.tmpdir(), 'social-'));
  await start();
});

afterAll(async () => {
  for (const c of clients) c.close();
  await srv?.stop();
  rmSync(worldDir, { recursive: true, force: true });
});

interface Player {
  client: TestWsClient;
  id: string;
  name: string;
  token: string;
}

/** A new account and character (`name`), or the character of `token` again; waits for its social:list. */
async function enter(name: string, token?: string): Promise<Player & { list: WsMessage }> {
  const client = await TestWsClient.connect(`ws://127.0.0.1:${srv.port}/ws`, {
    encoding: name.length % 2 === 0 ? 'json' : 'msgpack',
  });
  clients.push(client);
  client.send('authenticate', token === undefined ? { name } : { authToken: token });
  const auth = await client.next('authResult', 15_000);
  expect(auth.payload.success).toBe(true);
  const list = await client.next('social:list', 10_000);
  expect(serverEvents['social:list'].parse(list.payload)).toEqual(list.payload);
  return {
    client,
    id: auth.payload.characterId as string,
    name,
    token: (token ?? auth.payload.sessionToken) as string,
    list,
  };
}

async function leave(p: Player): Promise<void> {
  p.client.close();
  await p.client.waitClose();
}

/** The next `event` to `p` whose payload satisfies `pred`. */
async function nextWhere(p: Player, event: string, pred: (payload: WsMessage['payload']) => boolean) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const m = await p.client.next(event, Math.max(1, deadline - Date.now()));
    if (pred(m.payload)) return m.payload;
  }
}

type Friend = { id: string; name: string; online: boolean };
const friendsOf = (payload: WsMessage['payload']) => payload.friends as Friend[];

describe('friends over real sockets', () => {
  let alice: Player;
  let bob: Player;

  it('a request to an offline player reaches it when it enters; accepting makes both friends', async () => {
    bob = await enter('Bobsocial');
    await leave(bob);
    alice = await enter('Alicesocial');
    alice.client.send('friend:request', { name: 'bobsocial' });
    const sent = await alice.client.next('social:list');
    expect(sent.payload).toEqual({ friends: [], ignored: [], requests: [] });

    const back = await enter('Bobsocial', bob.token);
    bob = back;
    const requestId = `${alice.id}>${bob.id}`;
    expect(back.list.payload.requests).toEqual([{ requestId, fromId: alice.id, fromName: 'Alicesocial' }]);
    bob.client.send('friend:respond', { requestId, accept: true });
    const mine = await nextWhere(bob, 'social:list', (p) => friendsOf(p).length === 1);
    expect(mine).toEqual({
      friends: [{ id: alice.id, name: 'Alicesocial', online: true, world: 1 }],
      ignored: [],
      requests: [],
    });
    const theirs = await nextWhere(alice, 'social:list', (p) => friendsOf(p).length === 1);
    expect(friendsOf(theirs)).toEqual([{ id: bob.id, name: 'Bobsocial', online: true, world: 1 }]);
  });

  it('unknown, self and duplicate requests are refused with NOT_FOUND, INVALID_TARGET and BUSY', async () => {
    alice.client.send('friend:request', { name: 'Nobodyhere' });
    expect((await alice.client.next('error')).payload).toMatchObject({
      code: 'NOT_FOUND',
      event: 'friend:request',
    });
    alice.client.send('friend:request', { name: 'Alicesocial' });
    expect((await alice.client.next('error')).payload).toMatchObject({ code: 'INVALID_TARGET' });
    alice.client.send('friend:request', { name: 'Bobsocial' });
    expect((await alice.client.next('error')).payload).toMatchObject({ code: 'BUSY' });
  });

  it('two requests crossing become one friendship', async () => {
    const carol = await enter('Carolsocial');
    const dave = await enter('Davesocial');
    carol.client.send('friend:request', { name: 'Davesocial' });
    dave.client.send('friend:request', { name: 'Carolsocial' });
    const c = await nextWhere(carol, 'social:list', (p) => friendsOf(p).length === 1);
    const d = await nextWhere(dave, 'social:list', (p) => friendsOf(p).length === 1);
    expect(c).toEqual({
      friends: [{ id: dave.id, name: 'Davesocial', online: true, world: 1 }],
      ignored: [],
      requests: [],
    });
    expect(d).toEqual({
      friends: [{ id: carol.id, name: 'Carolsocial', online: true, world: 1 }],
      ignored: [],
      requests: [],
    });
    expect(carol.client.received.filter((m) => m.event === 'error')).toEqual([]);
    expect(dave.client.received.filter((m) => m.event === 'error')).toEqual([]);
    await leave(carol);
    await leave(dave);
  });

  it('a takeover (4002) announces nothing to friends; a real logout announces offline once', async () => {
    const presenceOfBob = () =>
      alice.client.received
        .filter((m) => m.event === 'friend:presence' && m.payload.id === bob.id)
        .map((m) => m.payload);
    const before = presenceOfBob().length;
    const again = await enter('Bobsocial', bob.token);
    expect(await bob.client.waitClose()).toBe(4002);
    expect(friendsOf(again.list.payload)).toEqual([
      { id: alice.id, name: 'Alicesocial', online: true, world: 1 },
    ]);
    bob = again;
    await leave(bob);
    await nextWhere(alice, 'friend:presence', (p) => p.id === bob.id && p.online === false);
    expect(presenceOfBob().slice(before)).toEqual([{ id: bob.id, name: 'Bobsocial', online: false }]);
  });

  it('GET /api/player/:id/friends: the same lists for the owner; 401, 403, 404 otherwise', async () => {
    const res = await api(base(), 'GET', `/api/player/${alice.id}/friends`, { token: alice.token });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      characterId: alice.id,
      friends: [{ id: bob.id, name: 'Bobsocial', online: false }],
      ignored: [],
      requests: [],
    });
    expect((await api(base(), 'GET', `/api/player/${alice.id}/friends`)).status).toBe(401);
    expect((await api(base(), 'GET', `/api/player/${alice.id}/friends`, { token: bob.token })).status).toBe(
      403,
    );
    expect(
      (await api(base(), 'GET', '/api/player/no-such-character/friends', { token: alice.token })).status,
    ).toBe(404);
  });

  it('ignoring drops private messages silently; the lists survive a restart', async () => {
    bob = await enter('Bobsocial', bob.token);
    alice.client.send('ignore:add', { name: 'Bobsocial' });
    await nextWhere(alice, 'social:list', (p) => (p.ignored as unknown[]).length === 1);
    bob.client.send('player:chat', { message: 'are you there?', to: 'Alicesocial' });
    const echo = await bob.client.next('chat:message');
    expect(echo.payload).toMatchObject({ channel: 'private', message: 'are you there?' });
    alice.client.send('ignore:remove', { name: 'Bobsocial' });
    await nextWhere(alice, 'social:list', (p) => (p.ignored as unknown[]).length === 0);
    bob.client.send('player:chat', { message: 'now?', to: 'Alicesocial' });
    const got = await nextWhere(alice, 'chat:message', (p) => p.channel === 'private');
    expect(got).toMatchObject({ fromId: bob.id, message: 'now?' });
    expect(bob.client.received.filter((m) => m.event === 'error')).toEqual([]);
    alice.client.send('ignore:add', { name: 'Bobsocial' });
    await nextWhere(alice, 'social:list', (p) => (p.ignored as unknown[]).length === 1);

    await srv.stop();
    await start();
    const back = await enter('Alicesocial', alice.token);
    expect(back.list.payload).toEqual({
      friends: [{ id: bob.id, name: 'Bobsocial', online: false }],
      ignored: [{ id: bob.id, name: 'Bobsocial' }],
      requests: [],
    });
  });
});
