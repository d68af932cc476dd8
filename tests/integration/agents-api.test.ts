import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../lib/logger.ts';
import { serverEvents } from '../../net/protocol/server-events.ts';
import { REPO_ROOT } from '../../src/server.ts';
import { startWorldServer, type WorldServer } from '../../src/world-server.ts';
import { jsonOf, problemOf } from '../helpers/http.ts';
import { api } from '../helpers/identity-server.ts';
import { testConfig } from '../helpers/server.ts';
import { TestWsClient } from '../helpers/ws-client.ts';

/**
 * The agent API over the real server (uWS, sessions, PGlite, default content, a ticking world): every
 * route's auth order (401 -> 403 -> 404), mappings, goals with pause/resume, stop ending the walk,
 * messages delivered live or kept while offline (at most 50) and delivered on connect, agent:progress,
 * the quick-actions shape, and everything surviving a restart.
 */

const TICK_MS = 50;
let worldDir: string;
let srv: WorldServer;
let base: string;
const clients: TestWsClient[] = [];

async function start(): Promise<void> {
  const config = testConfig({
    WORLD: worldDir,
    TICK_MS: String(TICK_MS),
    JWT_SECRET: 'integration-test-secret-0123456789-abcdefghij',
    ADMIN_CODE: 'test-admin-code',
    DISABLE_RATE_LIMIT: 'true',
  });
  srv = await startWorldServer(config, createLogger(config), {
    manifestsDir: path.join(REPO_ROOT, 'world', 'assets', 'manifests'),
    publicDir: '/nonexistent/public',
  });
  base = `http://127.0.0.1:${srv.port}`;
}

beforeAll(async () => {
  worldDir = mkdtempSync(path.join(os.tmpdir(), 'agents-api-'));
  await start();
});

afterAll(async () => {
  for (const c of clients) c.close();
  await srv?.stop();
  rmSync(worldDir, { recursive: true, force: true });
});

interface Owner {
  token: string;
  accountId: string;
}

const owner = async (): Promise<Owner> => jsonOf(await api(base, 'POST', '/api/auth/anonymous'));

let names = 0;
async function character(o: Owner): Promise<string> {
  const res = await api(base, 'POST', '/api/character/create', {
    token: o.token,
    body: { name: `Agt${String(++names).padStart(3, '0')}${Math.floor(Math.random() * 1000)}` },
  });
  expect(res.status).toBe(201);
  return (await jsonOf(res)).character.id;
}

async function agentOf(o: Owner, characterId?: string): Promise<{ agentId: string; characterId: string }> {
  const cid = characterId ?? (await character(o));
  const res = await api(base, 'POST', '/api/agents', { token: o.token, body: { characterId: cid } });
  expect(res.status).toBe(201);
  return jsonOf(res);
}

async function connect(o: Owner, characterId: string): Promise<TestWsClient> {
  const client = await TestWsClient.connect(`ws://127.0.0.1:${srv.port}/ws`, { encoding: 'json' });
  clients.push(client);
  client.send('authenticate', { authToken: o.token, characterId });
  const auth = await client.next('authResult', 15_000);
  expect(auth.payload.success).toBe(true);
  await client.next('player:sync', 5000);
  return client;
}

async function nextValid(client: TestWsClient, event: 'agent:goal' | 'agent:message', timeoutMs = 5000) {
  const m = await client.next(event, timeoutMs);
  expect(serverEvents[event].parse(m.payload)).toEqual(m.payload);
  return m.payload;
}

const ROUTES: [string, (a: string) => string, unknown?][] = [
  ['GET', (a) => `/api/agents/mapping/${a}`],
  ['DELETE', (a) => `/api/agents/${a}`],
  ['GET', (a) => `/api/agents/${a}/goal`],
  ['POST', (a) => `/api/agents/${a}/goal`, { type: 'idle' }],
  ['POST', (a) => `/api/agents/${a}/goal/stop`],
  ['POST', (a) => `/api/agents/${a}/goal/resume`],
  ['POST', (a) => `/api/agents/${a}/message`, { content: 'hello' }],
  ['GET', (a) => `/api/agents/${a}/quick-actions`],
  ['GET', (a) => `/api/agent/${a}`],
  ['GET', (a) => `/api/agent/${a}/state`],
];

describe('auth order on every agent route: 401, then 403, then 404', () => {
  it('401 without a valid token, for a real agent and for an unknown one', async () => {
    const alice = await owner();
    const { agentId } = await agentOf(alice);
    for (const [method, p, body] of ROUTES) {
      for (const id of [agentId, 'no-such-agent']) {
        for (const token of [undefined, 'garbage']) {
          const res = await api(base, method, p(id), {
            ...(token ? { token } : {}),
            ...(body ? { body } : {}),
          });
          expect(res.status, `${method} ${p(id)}`).toBe(401);
          expect(await problemOf(res)).toMatchObject({ code: 'UNAUTHORIZED' });
        }
      }
    }
    for (const [method, p] of [
      ['GET', '/api/agents'],
      ['POST', '/api/agents'],
    ] as const) {
      expect((await api(base, method, p)).status).toBe(401);
    }
  });

  it("403 for another account's agent (nothing changes), 404 for an unknown agent", async () => {
    const alice = await owner();
    const bob = await owner();
    const { agentId } = await agentOf(alice);
    for (const [method, p, body] of ROUTES) {
      const res = await api(base, method, p(agentId), { token: bob.token, ...(body ? { body } : {}) });
      expect(res.status, `${method} ${p(agentId)}`).toBe(403);
      expect(await problemOf(res)).toMatchObject({ code: 'FORBIDDEN' });
      const missing = await api(base, method, p('no-such-agent'), {
        token: bob.token,
        ...(body ? { body } : {}),
      });
      expect(missing.status, `${method} ${p('no-such-agent')}`).toBe(404);
      expect(await problemOf(missing)).toMatchObject({ code: 'NOT_FOUND' });
    }
    // Bob's refused stop and delete changed nothing.
    const goal = await jsonOf(await api(base, 'GET', `/api/agents/${agentId}/goal`, { token: alice.token }));
    expect(goal.goalsPaused).toBe(false);
  });
});

describe('mappings', () => {
  it('create (201), read, list, delete; only for a character of the caller', async () => {
    const alice = await owner();
    const bob = await owner();
    const cid = await character(alice);
    const res = await api(base, 'POST', '/api/agents', {
      token: alice.token,
      body: { characterId: cid, name: 'Scout' },
    });
    expect(res.status).toBe(201);
    const created = await jsonOf(res);
    expect(created).toEqual({
      agentId: expect.any(String),
      characterId: cid,
      accountId: alice.accountId,
      name: 'Scout',
      createdAt: expect.any(String),
    });
    expect(
      await jsonOf(await api(base, 'GET', `/api/agents/mapping/${created.agentId}`, { token: alice.token })),
    ).toEqual(created);
    expect(
      await jsonOf(await api(base, 'GET', `/api/agent/${created.agentId}`, { token: alice.token })),
    ).toEqual({
      ...created,
      online: false,
    });
    const list = await jsonOf(await api(base, 'GET', '/api/agents', { token: alice.token }));
    expect(list.agents).toEqual([{ ...created, online: false }]);
    expect((await jsonOf(await api(base, 'GET', '/api/agents', { token: bob.token }))).agents).toEqual([]);

    expect(
      (await api(base, 'POST', '/api/agents', { token: bob.token, body: { characterId: cid } })).status,
    ).toBe(403);
    expect(
      (await api(base, 'POST', '/api/agents', { token: bob.token, body: { characterId: 'nope' } })).status,
    ).toBe(404);
    expect((await api(base, 'POST', '/api/agents', { token: bob.token, body: {} })).status).toBe(400);

    const del = await api(base, 'DELETE', `/api/agents/${created.agentId}`, { token: alice.token });
    expect(del.status).toBe(200);
    expect(
      (await api(base, 'GET', `/api/agents/mapping/${created.agentId}`, { token: alice.token })).status,
    ).toBe(404);
    expect((await jsonOf(await api(base, 'GET', '/api/agents', { token: alice.token }))).agents).toEqual([]);
  });
});

describe('goals', () => {
  it('set, stop (409 GOALS_PAUSED while paused), resume; the agent hears each change; 400 for a goal not offered', async () => {
    const alice = await owner();
    const { agentId, characterId } = await agentOf(alice);
    const client = await connect(alice, characterId);
    // On connecting the agent is told its (empty) goal.
    expect(await nextValid(client, 'agent:goal')).toEqual({ goal: null, goalsPaused: false });

    const first = await jsonOf(await api(base, 'GET', `/api/agents/${agentId}/goal`, { token: alice.token }));
    expect(Object.keys(first).sort()).toEqual(['availableGoals', 'goal', 'goalsPaused']);
    expect(first.goal).toBeNull();
    const types = first.availableGoals.map((g: { type: string }) => g.type);
    expect(types).toEqual(
      expect.arrayContaining(['idle', 'explore', 'gather', 'combat', 'bank', 'trade', 'follow']),
    );
    for (const g of first.availableGoals) {
      expect(typeof g.label).toBe('string');
      expect(typeof g.available).toBe('boolean');
      if (!g.available) expect(typeof g.reason).toBe('string');
    }

    const set = await api(base, 'POST', `/api/agents/${agentId}/goal`, {
      token: alice.token,
      body: { type: 'explore', params: { radius: 10 } },
    });
    expect(set.status).toBe(200);
    const setBody = await jsonOf(set);
    expect(setBody).toMatchObject({ goal: { type: 'explore', params: { radius: 10 } }, goalsPaused: false });
    expect(setBody.goal.startedAt).toEqual(expect.any(Number));
    expect(await nextValid(client, 'agent:goal')).toEqual({ goal: setBody.goal, goalsPaused: false });

    const unknown = await api(base, 'POST', `/api/agents/${agentId}/goal`, {
      token: alice.token,
      body: { type: 'dance' },
    });
    expect(unknown.status).toBe(400);
    const unavailable = first.availableGoals.find((g: { available: boolean }) => !g.available);
    if (unavailable) {
      const res = await api(base, 'POST', `/api/agents/${agentId}/goal`, {
        token: alice.token,
        body: { type: unavailable.type },
      });
      expect(res.status).toBe(400);
    }

    const stop = await api(base, 'POST', `/api/agents/${agentId}/goal/stop`, { token: alice.token });
    expect(stop.status).toBe(200);
    const stopBody = await jsonOf(stop);
    expect(Object.keys(stopBody).sort()).toEqual(['availableGoals', 'goal', 'goalsPaused', 'success']);
    expect(stopBody).toMatchObject({ success: true, goal: null, goalsPaused: true });
    expect(await nextValid(client, 'agent:goal')).toEqual({ goal: null, goalsPaused: true });

    const refused = await api(base, 'POST', `/api/agents/${agentId}/goal`, {
      token: alice.token,
      body: { type: 'idle' },
    });
    expect(refused.status).toBe(409);
    expect(await problemOf(refused)).toMatchObject({ status: 409, code: 'GOALS_PAUSED' });

    // Chat still works while paused.
    client.send('player:chat', { message: 'still here' });
    const chat = await client.next('chat:message', 5000);
    expect(chat.payload.message).toBe('still here');

    const resume = await jsonOf(
      await api(base, 'POST', `/api/agents/${agentId}/goal/resume`, { token: alice.token }),
    );
    expect(resume).toMatchObject({ success: true, goalsPaused: false });
    expect(await nextValid(client, 'agent:goal')).toEqual({ goal: null, goalsPaused: false });
    const again = await api(base, 'POST', `/api/agents/${agentId}/goal`, {
      token: alice.token,
      body: { type: 'idle' },
    });
    expect(again.status).toBe(200);

    // Progress from the agent shows in the next read of the goal.
    client.send('agent:progress', { progress: 40, note: 'looking around' });
    let goal: { progress?: number; note?: string } = {};
    for (let i = 0; i < 50 && goal.progress === undefined; i++) {
      await new Promise((r) => setTimeout(r, 20));
      goal = (await jsonOf(await api(base, 'GET', `/api/agents/${agentId}/goal`, { token: alice.token })))
        .goal;
    }
    expect(goal).toMatchObject({ type: 'idle', progress: 40, note: 'looking around' });
  });

  it('stop ends the walk in progress at once', async () => {
    const alice = await owner();
    const { agentId, characterId } = await agentOf(alice);
    const client = await connect(alice, characterId);
    const stateOf = async () =>
      jsonOf(await api(base, 'GET', `/api/agent/${agentId}/state`, { token: alice.token }));
    const from = (await stateOf()).position;
    client.send('player:move', { x: from.x + 60, z: from.z });
    let moving = from;
    for (let i = 0; i < 100 && moving.x === from.x; i++) {
      await new Promise((r) => setTimeout(r, 20));
      moving = (await stateOf()).position;
    }
    expect(moving.x).toBeGreaterThan(from.x);
    await api(base, 'POST', `/api/agents/${agentId}/goal/stop`, { token: alice.token });
    await nextValid(client, 'agent:goal'); // the connect's
    expect(await nextValid(client, 'agent:goal')).toMatchObject({ goalsPaused: true });
    const stopped = (await stateOf()).position;
    await new Promise((r) => setTimeout(r, TICK_MS * 6));
    expect((await stateOf()).position).toEqual(stopped);
    expect(stopped.x).toBeLessThan(from.x + 60);
  });
});

describe('messages', () => {
  it('delivered live to the connected agent; kept (newest 50) while offline and delivered on connect', async () => {
    const alice = await owner();
    const { agentId, characterId } = await agentOf(alice);
    const send = (content: string) =>
      api(base, 'POST', `/api/agents/${agentId}/message`, { token: alice.token, body: { content } });

    for (const content of ['', 'x'.repeat(501)]) expect((await send(content)).status).toBe(400);
    for (let i = 0; i < 52; i++) {
      const res = await send(`offline ${i}`);
      expect(res.status).toBe(202);
      expect(await jsonOf(res)).toEqual({ delivered: false });
    }
    const client = await connect(alice, characterId);
    const got: string[] = [];
    for (let i = 0; i < 50; i++) {
      const m = await nextValid(client, 'agent:message');
      expect(m.from).toEqual({ accountId: alice.accountId, name: expect.any(String) });
      got.push(m.content);
    }
    expect(got).toEqual(Array.from({ length: 50 }, (_, i) => `offline ${i + 2}`));

    const live = await send('live one');
    expect(await jsonOf(live)).toEqual({ delivered: true });
    expect((await nextValid(client, 'agent:message')).content).toBe('live one');
    const online = await jsonOf(await api(base, 'GET', `/api/agent/${agentId}`, { token: alice.token }));
    expect(online.online).toBe(true);
  });
});

describe('connecting', () => {
  it('a player who is no agent hears no agent event; two agents of one character keep working when one is deleted', async () => {
    const alice = await owner();
    const plain = await character(alice);
    const c = await connect(alice, plain);
    await new Promise((r) => setTimeout(r, TICK_MS * 6));
    expect(c.received.filter((m) => m.event.startsWith('agent:'))).toEqual([]);
    c.close();
    const cid = await character(alice);
    const first = await agentOf(alice, cid);
    const second = await agentOf(alice, cid);
    await api(base, 'DELETE', `/api/agents/${first.agentId}`, { token: alice.token });
    const res = await api(base, 'POST', `/api/agents/${second.agentId}/message`, {
      token: alice.token,
      body: { content: 'for the second' },
    });
    expect(await jsonOf(res)).toEqual({ delivered: false });
    const agent = await connect(alice, cid);
    expect((await nextValid(agent, 'agent:message')).content).toBe('for the second');
  });
});

describe('quick actions and state', () => {
  it('answer the documented shape from the world around the character, online or not', async () => {
    const alice = await owner();
    const { agentId, characterId } = await agentOf(alice);
    const check = (body: Record<string, unknown>) => {
      expect(body['position']).toEqual({ x: expect.any(Number), z: expect.any(Number) });
      expect(body['inventory']).toHaveLength(28);
      expect(body['playerStats']).toEqual({
        health: expect.any(Number),
        maxHealth: expect.any(Number),
        combatLevel: 3,
        coins: expect.any(Number),
      });
      const near = body['nearbyLocations'] as { type: string; distance: number }[];
      expect(near.length).toBeGreaterThan(0);
      expect(near.length).toBeLessThanOrEqual(20);
      for (const l of near) {
        expect(Object.keys(l).sort()).toEqual(['distance', 'id', 'name', 'type', 'x', 'z']);
        expect(['bank', 'shop', 'resource', 'npc', 'station']).toContain(l.type);
      }
      expect(near.map((l) => l.distance)).toEqual([...near.map((l) => l.distance)].sort((a, b) => a - b));
      for (const q of body['quickCommands'] as Record<string, unknown>[]) {
        expect(q).toMatchObject({
          id: expect.any(String),
          label: expect.any(String),
          command: expect.any(String),
        });
        expect(typeof q['available']).toBe('boolean');
      }
      expect((body['availableGoals'] as unknown[]).length).toBeGreaterThan(0);
    };
    const offline = await jsonOf(
      await api(base, 'GET', `/api/agents/${agentId}/quick-actions`, { token: alice.token }),
    );
    expect(Object.keys(offline).sort()).toEqual(
      ['availableGoals', 'inventory', 'nearbyLocations', 'playerStats', 'position', 'quickCommands'].sort(),
    );
    check(offline);
    await connect(alice, characterId);
    const state = await jsonOf(await api(base, 'GET', `/api/agent/${agentId}/state`, { token: alice.token }));
    check(state);
    expect(state).toMatchObject({ goal: null, goalsPaused: false });
  });
});

describe('persistence across a restart', () => {
  it('keeps mappings, goals with their pause flag, and messages kept for an offline agent', async () => {
    const alice = await owner();
    const { agentId, characterId } = await agentOf(alice);
    const set = await api(base, 'POST', `/api/agents/${agentId}/goal`, {
      token: alice.token,
      body: { type: 'explore' },
    });
    expect(set.status).toBe(200);
    await api(base, 'POST', `/api/agents/${agentId}/goal/stop`, { token: alice.token });
    await api(base, 'POST', `/api/agents/${agentId}/message`, {
      token: alice.token,
      body: { content: 'after restart' },
    });

    for (const c of clients.splice(0)) c.close();
    await srv.stop();
    await start();

    const mapping = await api(base, 'GET', `/api/agents/mapping/${agentId}`, { token: alice.token });
    expect(mapping.status).toBe(200);
    const goal = await jsonOf(await api(base, 'GET', `/api/agents/${agentId}/goal`, { token: alice.token }));
    expect(goal).toMatchObject({ goal: null, goalsPaused: true });
    const client = await connect(alice, characterId);
    expect(await nextValid(client, 'agent:goal')).toEqual({ goal: null, goalsPaused: true });
    expect((await nextValid(client, 'agent:message')).content).toBe('after restart');
  });
});
