import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalMessaging } from '../../../net/messaging/local.ts';
import { SocialBridge } from '../../../net/social/bridge.ts';
import { migrate } from '../../../persistence/migrate.ts';
import type { SqlClient } from '../../../persistence/sql.ts';
import { SqlPersistence } from '../../../persistence/sql-port.ts';
import { makeCharacter } from '../../../tests/helpers/characters.ts';
import { pgliteTestDb, type TestDb } from '../../../tests/helpers/db.ts';
import { Scenario } from '../../../tests/scenario/harness.ts';
import { MAX_FRIENDS, MAX_IGNORED, MAX_PENDING_ACTIONS, TAKEOVER_GRACE_TICKS } from './index.ts';

/**
 * The social rules tick by tick, with what runs outside the tick made real: persistence on PGlite, the
 * local messaging port and the bridge between them. `settle()` lets the outside answer and applies the
 * answers (commands for the next tick), as the running server does.
 */

let db: TestDb;
let sql: SqlClient;
let port: SqlPersistence;

beforeAll(async () => {
  db = pgliteTestDb();
  sql = await db.connect();
  await migrate(sql);
  port = new SqlPersistence(sql);
});
afterAll(async () => {
  await sql?.close();
  await db?.destroy();
});

interface Who {
  id: string;
  name: string;
  account: string;
}

/** A world wired like the server's, sharing `messaging` with other worlds of the same test. */
function world(messaging = new LocalMessaging(), worldId = 1) {
  const s = new Scenario();
  const bridge = new SocialBridge({
    port,
    messaging,
    worldId,
    enqueue: (cmd) => s.push(cmd),
    log: { error: (obj) => console.error(obj), info: () => {} },
  });
  s.afterTick.push((w) => bridge.afterTick(w));
  /** Step until the outside has nothing left to answer. */
  const settle = async (rounds = 4) => {
    for (let i = 0; i < rounds; i++) {
      await bridge.idle();
      s.step();
    }
  };
  return { s, bridge, messaging, settle };
}

let n = 0;
async function character(prefix = 'P'): Promise<Who> {
  const name = `${prefix}${++n}${randomUUID().slice(0, 5)}`;
  const account = (await port.createAnonymousUser(`u-${name}`)).id;
  const c = await port.createCharacter(makeCharacter(account, name, { position: { x: 100, y: 0, z: 100 } }));
  return { id: c.id, name, account };
}

/** Loads the character as login does (lists included) and has it enter the world. */
async function enter(w: ReturnType<typeof world>, who: Who): Promise<void> {
  const state = await port.loadCharacter(who.id);
  if (!state) throw new Error('no such character');
  w.s.push({ type: 'join', characterId: who.id, accountId: who.account, state });
  await w.settle();
}

function lastList(s: Scenario, id: string) {
  return s.lastEvent(id, 'socialList')?.data;
}

describe('social: friends, requests, ignore list, presence', () => {
  it('entering the world sends the lists loaded with the character', async () => {
    const w = world();
    const [a, b, c] = [await character(), await character(), await character()];
    await port.socialAct({ kind: 'request', actorId: b.id, name: a.name });
    await port.socialAct({ kind: 'request', actorId: a.id, name: c.name });
    await port.socialAct({ kind: 'respond', actorId: c.id, requestId: `${a.id}>${c.id}`, accept: true });
    await port.socialAct({ kind: 'ignoreAdd', actorId: a.id, name: b.name });
    await enter(w, c);
    await enter(w, a);
    expect(lastList(w.s, a.id)).toEqual({
      friends: [{ id: c.id, name: c.name, online: true, world: 1 }],
      ignored: [{ id: b.id, name: b.name }],
      requests: [{ requestId: `${b.id}>${a.id}`, fromId: b.id, fromName: b.name }],
    });
  });

  it('a request to an offline player waits for it; it sees it on entering and accepts; both become friends', async () => {
    const w = world();
    const [a, b] = [await character(), await character()];
    await enter(w, a);
    w.s.push({
      type: 'friendRequest',
      characterId: a.id,
      name: b.name.toLowerCase(),
      origin: 'friend:request',
    });
    await w.settle();
    expect(w.s.eventsOf(a.id, 'error')).toEqual([]);
    await enter(w, b);
    const requestId = `${a.id}>${b.id}`;
    expect(lastList(w.s, b.id)?.requests).toEqual([{ requestId, fromId: a.id, fromName: a.name }]);
    w.s.push({ type: 'friendRespond', characterId: b.id, requestId, accept: true });
    await w.settle();
    expect(lastList(w.s, b.id)).toEqual({
      friends: [{ id: a.id, name: a.name, online: true, world: 1 }],
      ignored: [],
      requests: [],
    });
    expect(lastList(w.s, a.id)?.friends).toEqual([{ id: b.id, name: b.name, online: true, world: 1 }]);
  });

  it('a request to an online player is shown at once; declining drops it', async () => {
    const w = world();
    const [a, b] = [await character(), await character()];
    await enter(w, a);
    await enter(w, b);
    w.s.push({ type: 'friendRequest', characterId: a.id, name: b.name });
    await w.settle();
    const requestId = `${a.id}>${b.id}`;
    expect(w.s.eventsOf(b.id, 'friendRequestReceived').map((e) => e.data)).toEqual([
      { requestId, fromId: a.id, fromName: a.name },
    ]);
    expect(lastList(w.s, b.id)?.requests).toHaveLength(1);
    w.s.push({ type: 'friendRespond', characterId: b.id, requestId, accept: false });
    await w.settle();
    expect(lastList(w.s, b.id)).toEqual({ friends: [], ignored: [], requests: [] });
    expect(lastList(w.s, a.id)?.friends).toEqual([]);
    // The request is gone: answering again is NOT_FOUND.
    w.s.push({ type: 'friendRespond', characterId: b.id, requestId, accept: true, origin: 'friend:respond' });
    await w.settle();
    expect(w.s.lastEvent(b.id, 'error')?.data).toMatchObject({ code: 'NOT_FOUND', event: 'friend:respond' });
  });

  it('two requests crossing in one tick become a friendship, not two requests', async () => {
    const w = world();
    const [a, b] = [await character(), await character()];
    await enter(w, a);
    await enter(w, b);
    w.s.push({ type: 'friendRequest', characterId: a.id, name: b.name });
    w.s.push({ type: 'friendRequest', characterId: b.id, name: a.name });
    await w.settle();
    expect(w.s.eventsOf(a.id, 'error')).toEqual([]);
    expect(w.s.eventsOf(b.id, 'error')).toEqual([]);
    expect(lastList(w.s, a.id)).toEqual({
      friends: [{ id: b.id, name: b.name, online: true, world: 1 }],
      ignored: [],
      requests: [],
    });
    expect(lastList(w.s, b.id)).toEqual({
      friends: [{ id: a.id, name: a.name, online: true, world: 1 }],
      ignored: [],
      requests: [],
    });
    const both = await port.loadSocialLists([a.id, b.id]);
    expect(both.get(a.id)?.outgoing).toEqual([]);
    expect(both.get(b.id)?.outgoing).toEqual([]);
  });

  it('errors: unknown name NOT_FOUND, self INVALID_TARGET, duplicate BUSY, and nothing changes', async () => {
    const w = world();
    const [a, b] = [await character(), await character()];
    await enter(w, a);
    const codes = async (cmd: Parameters<Scenario['push']>[0]) => {
      const before = w.s.eventsOf(a.id, 'error').length;
      w.s.push(cmd);
      await w.settle();
      return w.s
        .eventsOf(a.id, 'error')
        .slice(before)
        .map((e) => e.data.code);
    };
    expect(await codes({ type: 'friendRequest', characterId: a.id, name: 'NobodyByThisName' })).toEqual([
      'NOT_FOUND',
    ]);
    expect(
      await codes({ type: 'friendRequest', characterId: a.id, name: ` ${a.name.toUpperCase()} ` }),
    ).toEqual(['INVALID_TARGET']);
    expect(await codes({ type: 'friendRequest', characterId: a.id, name: b.name })).toEqual([]);
    expect(await codes({ type: 'friendRequest', characterId: a.id, name: b.name })).toEqual(['BUSY']);
    expect(await codes({ type: 'friendRemove', characterId: a.id, name: 'NobodyByThisName' })).toEqual([
      'NOT_FOUND',
    ]);
    expect(await codes({ type: 'ignoreAdd', characterId: a.id, name: a.name })).toEqual(['INVALID_TARGET']);
    expect(await codes({ type: 'ignoreAdd', characterId: a.id, name: 'NobodyByThisName' })).toEqual([
      'NOT_FOUND',
    ]);
    expect(await codes({ type: 'ignoreRemove', characterId: a.id, name: b.name })).toEqual(['NOT_FOUND']);
    expect(await codes({ type: 'ignoreAdd', characterId: a.id, name: b.name })).toEqual([]);
    expect(await codes({ type: 'ignoreAdd', characterId: a.id, name: b.name.toUpperCase() })).toEqual([
      'BUSY',
    ]);
    expect(await codes({ type: 'ignoreRemove', characterId: a.id, name: b.name })).toEqual([]);
    expect((await port.loadSocialLists([b.id])).get(b.id)?.requests).toHaveLength(1);
  });

  it(`past ${MAX_FRIENDS} friends or ${MAX_IGNORED} ignored: REQUIREMENT_NOT_MET`, async () => {
    const w = world();
    const [a, b] = [await character('Full'), await character()];
    const fillers = await port.createAnonymousLogins(
      Array.from({ length: MAX_FRIENDS }, (_, i) => ({
        userName: `sf${i}`,
        character: makeCharacter(randomUUID(), `SFill${i}x${randomUUID().slice(0, 5)}`),
      })),
    );
    expect(fillers.taken.size).toBe(0);
    const ids = (await sql.query<{ id: string }>(`SELECT id FROM characters WHERE name LIKE 'SFill%'`)).map(
      (r) => r.id,
    );
    await sql.query(
      `INSERT INTO friendships ("characterA", "characterB")
       SELECT least($1, x), greatest($1, x) FROM jsonb_array_elements_text($2::text::jsonb) AS x`,
      [a.id, JSON.stringify(ids.slice(0, MAX_FRIENDS))],
    );
    await sql.query(
      `INSERT INTO ignore_lists ("accountId", "ignoredCharacterId")
       SELECT $1, x FROM jsonb_array_elements_text($2::text::jsonb) AS x`,
      [a.account, JSON.stringify(ids.slice(0, MAX_IGNORED))],
    );
    await enter(w, a);
    expect(lastList(w.s, a.id)?.friends).toHaveLength(MAX_FRIENDS);
    w.s.push({ type: 'friendRequest', characterId: a.id, name: b.name });
    w.s.push({ type: 'ignoreAdd', characterId: a.id, name: b.name });
    await w.settle();
    expect(w.s.eventsOf(a.id, 'error').map((e) => e.data.code)).toEqual([
      'REQUIREMENT_NOT_MET',
      'REQUIREMENT_NOT_MET',
    ]);
    // B asks A: the request waits, but A's accept is refused while A is full.
    await enter(w, b);
    w.s.push({ type: 'friendRequest', characterId: b.id, name: a.name });
    await w.settle();
    const requestId = `${b.id}>${a.id}`;
    w.s.push({ type: 'friendRespond', characterId: a.id, requestId, accept: true });
    await w.settle();
    expect(w.s.lastEvent(a.id, 'error')?.data.code).toBe('REQUIREMENT_NOT_MET');
    expect((await port.loadSocialLists([a.id])).get(a.id)?.friends).toHaveLength(MAX_FRIENDS);
  });

  it(`more than ${MAX_PENDING_ACTIONS} actions waiting for the database at once: BUSY`, async () => {
    const w = world();
    const a = await character();
    const others = [];
    for (let i = 0; i < MAX_PENDING_ACTIONS + 2; i++) others.push(await character());
    await enter(w, a);
    for (const o of others) w.s.push({ type: 'friendRequest', characterId: a.id, name: o.name });
    await w.settle();
    expect(w.s.eventsOf(a.id, 'error').map((e) => e.data.code)).toEqual(['BUSY', 'BUSY']);
    expect((await port.loadSocialLists([a.id])).get(a.id)?.outgoing).toHaveLength(MAX_PENDING_ACTIONS);
    // Answered: the next ones pass.
    for (const o of others.slice(MAX_PENDING_ACTIONS))
      w.s.push({ type: 'friendRequest', characterId: a.id, name: o.name });
    await w.settle();
    expect(w.s.eventsOf(a.id, 'error')).toHaveLength(2);
    expect((await port.loadSocialLists([a.id])).get(a.id)?.outgoing).toHaveLength(MAX_PENDING_ACTIONS + 2);
  });

  it('a change between loading the character and entering is read again after entering', async () => {
    const w = world();
    const [a, b] = [await character(), await character()];
    const stale = await port.loadCharacter(a.id);
    await port.socialAct({ kind: 'request', actorId: b.id, name: a.name });
    w.s.push({ type: 'join', characterId: a.id, accountId: a.account, state: stale! });
    await w.settle();
    const lists = w.s.eventsOf(a.id, 'socialList').map((e) => e.data.requests.length);
    expect(lists).toEqual([0, 1]);
    // Unchanged lists are not sent again.
    await enter(w, b);
    expect(w.s.eventsOf(b.id, 'socialList')).toHaveLength(1);
  });

  it('removing a friend ends it for both', async () => {
    const w = world();
    const [a, b] = [await character(), await character()];
    await enter(w, a);
    await enter(w, b);
    w.s.push({ type: 'friendRequest', characterId: a.id, name: b.name });
    w.s.push({ type: 'friendRequest', characterId: b.id, name: a.name });
    await w.settle();
    w.s.push({ type: 'friendRemove', characterId: b.id, name: a.name });
    await w.settle();
    expect(lastList(w.s, a.id)?.friends).toEqual([]);
    expect(lastList(w.s, b.id)?.friends).toEqual([]);
  });

  it('friends hear a player enter and leave; a takeover announces nothing; one that never comes back goes offline', async () => {
    const w = world();
    const [a, b, stranger] = [await character(), await character(), await character()];
    await port.socialAct({ kind: 'request', actorId: a.id, name: b.name });
    await port.socialAct({ kind: 'request', actorId: b.id, name: a.name });
    await enter(w, a);
    await enter(w, stranger);
    expect(lastList(w.s, a.id)?.friends).toEqual([{ id: b.id, name: b.name, online: false }]);
    await enter(w, b);
    const presence = () => w.s.eventsOf(a.id, 'friendPresence').map((e) => e.data);
    expect(presence()).toEqual([{ id: b.id, name: b.name, online: true, world: 1 }]);
    expect(w.s.eventsOf(stranger.id, 'friendPresence')).toEqual([]);

    // Takeover: leave with reason takeover, then the new connection's join.
    const state = await port.loadCharacter(b.id);
    w.s.push({ type: 'leave', characterId: b.id, reason: 'takeover' });
    await w.settle();
    w.s.push({ type: 'join', characterId: b.id, accountId: b.account, state: state! });
    await w.settle();
    expect(presence()).toEqual([{ id: b.id, name: b.name, online: true, world: 1 }]);
    expect(lastList(w.s, b.id)?.friends).toEqual([{ id: a.id, name: a.name, online: true, world: 1 }]);

    w.s.push({ type: 'leave', characterId: b.id, reason: 'logout' });
    await w.settle();
    expect(presence()).toEqual([
      { id: b.id, name: b.name, online: true, world: 1 },
      { id: b.id, name: b.name, online: false },
    ]);

    await enter(w, b);
    w.s.push({ type: 'leave', characterId: b.id, reason: 'takeover' });
    await w.settle();
    expect(presence()).toHaveLength(3);
    w.s.step(TAKEOVER_GRACE_TICKS);
    await w.settle();
    expect(presence().slice(3)).toEqual([{ id: b.id, name: b.name, online: false }]);
  });

  it("an ignored player's local chat and private messages never reach the ignorer; the sender is not told", async () => {
    const w = world();
    const [a, pest, other] = [await character(), await character(), await character()];
    await enter(w, a);
    await enter(w, pest);
    await enter(w, other);
    w.s.push({ type: 'ignoreAdd', characterId: a.id, name: pest.name });
    await w.settle();
    expect(lastList(w.s, a.id)?.ignored).toEqual([{ id: pest.id, name: pest.name }]);
    w.s.push({ type: 'chat', characterId: pest.id, message: 'spam' });
    w.s.push({ type: 'chat', characterId: pest.id, message: 'private spam', to: a.name });
    w.s.step();
    expect(w.s.eventsOf(a.id, 'chat')).toEqual([]);
    expect(w.s.eventsOf(other.id, 'chat').map((e) => e.data.message)).toEqual(['spam']);
    expect(w.s.eventsOf(pest.id, 'chat').map((e) => e.data.message)).toEqual(['spam', 'private spam']);
    expect(w.s.eventsOf(pest.id, 'error')).toEqual([]);

    w.s.push({ type: 'ignoreRemove', characterId: a.id, name: pest.name });
    await w.settle();
    w.s.push({ type: 'chat', characterId: pest.id, message: 'hello again' });
    w.s.step();
    expect(w.s.eventsOf(a.id, 'chat').map((e) => e.data.message)).toEqual(['hello again']);
  });

  it("the ignore list is the account's: its other character in the game gets the new list and stops hearing", async () => {
    const w = world();
    const [a, pest] = [await character(), await character()];
    const altState = await port.createCharacter(makeCharacter(a.account, `Alt${randomUUID().slice(0, 6)}`));
    const alt = { id: altState.id, name: altState.name, account: a.account };
    await enter(w, a);
    await enter(w, alt);
    await enter(w, pest);
    w.s.push({ type: 'ignoreAdd', characterId: a.id, name: pest.name });
    await w.settle();
    expect(lastList(w.s, alt.id)?.ignored).toEqual([{ id: pest.id, name: pest.name }]);
    w.s.push({ type: 'chat', characterId: pest.id, message: 'spam' });
    w.s.step();
    expect(w.s.eventsOf(alt.id, 'chat')).toEqual([]);
  });

  it('a private message reaches a player in another world through the messaging port, unless it ignores the sender', async () => {
    const messaging = new LocalMessaging();
    const w1 = world(messaging);
    const w2 = world(messaging);
    const [a, b] = [await character(), await character()];
    await enter(w1, a);
    await enter(w2, b);
    await w1.settle();
    w1.s.push({ type: 'chat', characterId: a.id, message: 'across worlds', to: b.name });
    await w1.settle();
    await w2.settle();
    expect(w2.s.eventsOf(b.id, 'chat').map((e) => e.data)).toEqual([
      expect.objectContaining({
        fromId: a.id,
        fromName: a.name,
        message: 'across worlds',
        channel: 'private',
      }),
    ]);
    expect(w1.s.eventsOf(a.id, 'chat').map((e) => e.data.message)).toEqual(['across worlds']);
    // Ignored in world 2: silently dropped there.
    w2.s.push({ type: 'ignoreAdd', characterId: b.id, name: a.name });
    await w2.settle();
    w1.s.push({ type: 'chat', characterId: a.id, message: 'again', to: b.name });
    await w1.settle();
    await w2.settle();
    expect(w2.s.eventsOf(b.id, 'chat')).toHaveLength(1);
    expect(w1.s.eventsOf(a.id, 'error')).toEqual([]);
    // Offline anywhere: NOT_FOUND.
    w2.s.push({ type: 'leave', characterId: b.id, reason: 'logout' });
    await w2.settle();
    await w1.settle();
    w1.s.push({ type: 'chat', characterId: a.id, message: 'gone?', to: b.name, origin: 'player:chat' });
    w1.s.step();
    expect(w1.s.lastEvent(a.id, 'error')?.data).toMatchObject({ code: 'NOT_FOUND', event: 'player:chat' });
  });

  it('social:list and presence say which world a friend is in; moving worlds is no offline flicker', async () => {
    const messaging = new LocalMessaging();
    const w1 = world(messaging, 1);
    const w2 = world(messaging, 2);
    const [a, b] = [await character(), await character()];
    await port.socialAct({ kind: 'request', actorId: a.id, name: b.name });
    await port.socialAct({ kind: 'request', actorId: b.id, name: a.name });
    await enter(w1, a);
    await enter(w2, b);
    await w1.settle();
    const presence = () => w1.s.eventsOf(a.id, 'friendPresence').map((e) => e.data);
    expect(presence()).toEqual([{ id: b.id, name: b.name, online: true, world: 2 }]);
    expect(lastList(w2.s, b.id)?.friends).toEqual([{ id: a.id, name: a.name, online: true, world: 1 }]);

    // b moves to world 1: it leaves world 2 and enters world 1 (the online may arrive first elsewhere).
    w1.s.push({ type: 'socialPresence', characterId: b.id, name: b.name, online: true, world: 3 });
    w1.s.push({ type: 'socialPresence', characterId: b.id, name: b.name, online: false, world: 2 });
    w1.s.step();
    expect(presence().slice(1)).toEqual([{ id: b.id, name: b.name, online: true, world: 3 }]);
    // The stale offline from world 2 was ignored: b is still online, in world 3.
    w1.s.push({
      type: 'chat',
      characterId: a.id,
      message: 'where are you?',
      to: b.name,
      origin: 'player:chat',
    });
    w1.s.step();
    expect(w1.s.eventsOf(a.id, 'error').filter((e) => e.data.event === 'player:chat')).toEqual([]);
  });

  it('a world that goes down takes its players offline for the others', async () => {
    const messaging = new LocalMessaging();
    const w1 = world(messaging, 1);
    const w2 = world(messaging, 2);
    const [a, b, c] = [await character(), await character(), await character()];
    await port.socialAct({ kind: 'request', actorId: a.id, name: b.name });
    await port.socialAct({ kind: 'request', actorId: b.id, name: a.name });
    await enter(w1, a);
    await enter(w2, b);
    await enter(w2, c);
    await w1.settle();
    w1.bridge.worldStatus(2, 'offline');
    w1.bridge.worldStatus(1, 'offline'); // its own world: never
    await w1.settle();
    expect(w1.s.eventsOf(a.id, 'friendPresence').map((e) => e.data)).toEqual([
      { id: b.id, name: b.name, online: true, world: 2 },
      { id: b.id, name: b.name, online: false },
    ]);
    w1.s.push({ type: 'chat', characterId: a.id, message: 'hello?', to: c.name, origin: 'player:chat' });
    w1.s.step();
    expect(w1.s.lastEvent(a.id, 'error')?.data).toMatchObject({ code: 'NOT_FOUND', event: 'player:chat' });
    expect(w1.s.eventsOf(a.id, 'friendPresence')).toHaveLength(2);
    // When it comes back, world 1 asks again who is online there.
    w1.bridge.worldStatus(2, 'online');
    await w1.settle();
    expect(w1.s.eventsOf(a.id, 'friendPresence').map((e) => e.data)[2]).toEqual({
      id: b.id,
      name: b.name,
      online: true,
      world: 2,
    });
  });

  it('a world that starts late learns who is already online in the others', async () => {
    const messaging = new LocalMessaging();
    const w1 = world(messaging, 1);
    const [a, b] = [await character(), await character()];
    await port.socialAct({ kind: 'request', actorId: a.id, name: b.name });
    await port.socialAct({ kind: 'request', actorId: b.id, name: a.name });
    await enter(w1, b);
    const w2 = world(messaging, 2);
    await w2.settle();
    await enter(w2, a);
    expect(lastList(w2.s, a.id)?.friends).toEqual([{ id: b.id, name: b.name, online: true, world: 1 }]);
  });

  it('/announce reaches every player of every world on the system channel; only admins may', async () => {
    const messaging = new LocalMessaging();
    const w1 = world(messaging, 1);
    const w2 = world(messaging, 2);
    const [admin, a, b] = [await character('Adm'), await character(), await character()];
    await enter(w1, admin);
    await enter(w1, a);
    await enter(w2, b);
    w1.s.push({
      type: 'chatCommand',
      characterId: a.id,
      name: 'announce',
      args: ['hi'],
      origin: 'player:chat',
    });
    w1.s.step();
    expect(w1.s.lastEvent(a.id, 'error')?.data).toMatchObject({ code: 'FORBIDDEN' });
    w1.s.push({ type: 'setAdmin', characterId: admin.id });
    w1.s.push({ type: 'chatCommand', characterId: admin.id, name: 'announce', args: [] });
    w1.s.step();
    expect(w1.s.lastEvent(admin.id, 'chat')?.data.message).toBe('Usage: /announce <message>');
    w1.s.push({
      type: 'chatCommand',
      characterId: admin.id,
      name: 'announce',
      args: ['Restart', 'in', '5', 'minutes'],
    });
    await w1.settle();
    await w2.settle();
    const line = {
      fromId: 'system',
      fromName: 'Announcement',
      message: `${admin.name}: Restart in 5 minutes`,
      channel: 'system',
      timestamp: expect.any(Number),
    };
    for (const [w, who] of [
      [w1, admin],
      [w1, a],
      [w2, b],
    ] as const)
      expect(
        w.s
          .eventsOf(who.id, 'chat')
          .filter((e) => e.data.fromName === 'Announcement')
          .map((e) => e.data),
      ).toEqual([line]);
  });
});
