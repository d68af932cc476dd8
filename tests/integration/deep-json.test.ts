import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH } from '../../lib/json-limits.ts';
import { createLogger } from '../../lib/logger.ts';
import { REPO_ROOT } from '../../lib/repo-root.ts';
import { openPglite } from '../../persistence/drivers/pglite.ts';
import { startWorldServer, type WorldServer } from '../../src/world-server.ts';
import { jsonOf, problemOf } from '../helpers/http.ts';
import { api } from '../helpers/identity-server.ts';
import { testConfig } from '../helpers/server.ts';
import { TestWsClient } from '../helpers/ws-client.ts';

/**
 * Issue 26, item 1: a value nested thousands of levels deep reaches the server by three paths, and none
 * may crash it. The HTTP route that stores an agent's goal answers 400 and stores nothing; a deep
 * WebSocket frame in either encoding is answered BAD_MESSAGE and the connection stays open; a deep goal
 * already in agent_goals (written before the limit existed, or by hand) is set aside with a log line
 * when its character logs in over msgpack, and the session works. Real server, PGlite, default content.
 */

const TOO_DEEP = `nested more than ${MAX_JSON_DEPTH} levels deep`;
let worldDir: string;
let srv: WorldServer | undefined;
let base: string;
let wsUrl: string;
const logLines: string[] = [];
const clients: TestWsClient[] = [];

async function start(): Promise<void> {
  const config = testConfig({
    WORLD: worldDir,
    TICK_MS: '50',
    JWT_SECRET: 'integration-test-secret-0123456789-abcdefghij',
    DISABLE_RATE_LIMIT: 'true',
  });
  const capture = new Writable({
    write(chunk, _enc, cb) {
      logLines.push(String(chunk));
      cb();
    },
  });
  srv = await startWorldServer(config, createLogger({ ...config, logLevel: 'info' }, capture), {
    manifestsDir: path.join(REPO_ROOT, 'world', 'assets', 'manifests'),
    publicDir: '/nonexistent/public',
  });
  base = `http://127.0.0.1:${srv.port}`;
  wsUrl = `ws://127.0.0.1:${srv.port}/ws`;
}

beforeAll(async () => {
  worldDir = mkdtempSync(path.join(os.tmpdir(), 'deep-json-'));
  await start();
});

afterAll(async () => {
  for (const c of clients) c.close();
  await srv?.stop();
  rmSync(worldDir, { recursive: true, force: true });
});

/** `{"a":` n times, 1, `}` n times: the 9 KB body shape. */
const deepObject = (n: number) => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`;
const deepGoalBody = (n: number) => `{"type":"idle","params":${deepObject(n)}}`;

interface Agent {
  token: string;
  characterId: string;
  agentId: string;
}

async function newAgent(name: string): Promise<Agent> {
  const { token } = await jsonOf(await api(base, 'POST', '/api/auth/anonymous'));
  const created = await api(base, 'POST', '/api/character/create', { token, body: { name } });
  expect(created.status).toBe(201);
  const characterId = (await jsonOf(created)).character.id as string;
  const mapped = await api(base, 'POST', '/api/agents', { token, body: { characterId } });
  expect(mapped.status).toBe(201);
  return { token, characterId, agentId: (await jsonOf(mapped)).agentId };
}

async function login(a: Agent, encoding: 'json' | 'msgpack'): Promise<TestWsClient> {
  const c = await TestWsClient.connect(wsUrl, { encoding });
  clients.push(c);
  c.send('authenticate', { authToken: a.token, characterId: a.characterId });
  expect((await c.next('authResult', 15_000)).payload.success).toBe(true);
  await c.next('player:sync', 5000);
  return c;
}

/** The session answers: a chat line comes back to its sender. */
async function expectWorking(c: TestWsClient, line: string): Promise<void> {
  c.send('player:chat', { message: line });
  const heard = await c.next('chat:message', 5000);
  expect(heard.payload).toMatchObject({ message: line, channel: 'local' });
}

let alice: Agent;

describe('deep JSON at every edge', () => {
  it('POST /api/agents/:agentId/goal with 1,500 and 10,000 levels: 400 naming the limit, nothing stored', async () => {
    alice = await newAgent('DeepAlice');
    for (const n of [1500, 10_000]) {
      const res = await fetch(`${base}/api/agents/${alice.agentId}/goal`, {
        method: 'POST',
        headers: { authorization: `Bearer ${alice.token}`, 'content-type': 'application/json' },
        body: deepGoalBody(n),
      });
      expect(res.status, `${n} levels`).toBe(400);
      expect(await problemOf(res)).toMatchObject({
        code: 'BAD_REQUEST',
        detail: `The request body is ${TOO_DEEP}`,
      });
    }
    const goal = await jsonOf(
      await api(base, 'GET', `/api/agents/${alice.agentId}/goal`, { token: alice.token }),
    );
    expect(goal.goal).toBeNull();
    // A goal within the limit is still taken.
    const ok = await api(base, 'POST', `/api/agents/${alice.agentId}/goal`, {
      token: alice.token,
      body: { type: 'idle', params: { a: { b: [1, 2] } } },
    });
    expect(ok.status).toBe(200);
  });

  it.each(['json', 'msgpack'] as const)(
    '%s session: deep frames of both kinds get BAD_MESSAGE naming the limit; the connection stays open',
    async (encoding) => {
      const bob = await newAgent(`Deep${encoding === 'json' ? 'Jay' : 'Mop'}`);
      const c = await login(bob, encoding);
      const frames: [string | Uint8Array, string | null][] = [];
      for (const n of [1500, 10_000]) {
        frames.push([`["player:chat",{"message":"hi","x":${deepObject(n)}}]`, 'player:chat']);
        frames.push(['['.repeat(n) + ']'.repeat(n), null]);
        frames.push([
          Uint8Array.from([0x92, 0xab, ...Buffer.from('player:chat'), ...new Array(n).fill(0x91), 0x90]),
          'player:chat',
        ]);
        frames.push([Uint8Array.from([...new Array(n).fill(0x91), 0x90]), null]);
      }
      for (const [frame, event] of frames) {
        c.sendRaw(frame);
        const err = await c.next('error', 5000);
        expect(err.payload).toEqual({ code: 'BAD_MESSAGE', message: `frame is ${TOO_DEEP}`, event });
      }
      await expectWorking(c, `still here ${encoding}`);
      expect(c.closeCode).toBeUndefined();
      expect((await fetch(`${base}/health`)).status).toBe(200);
    },
  );

  it('a deep goal already in agent_goals: a msgpack login of its character works, the goal is set aside with a log line', async () => {
    // Written straight into the table, as a row from before the limit (or from an operator) would be.
    await srv?.stop();
    srv = undefined;
    const db = await openPglite(path.join(worldDir, '.data', 'pglite'));
    try {
      const goal = `{"type":"idle","label":"Idle","startedAt":1,"params":${deepObject(1500)}}`;
      await db.query(
        `INSERT INTO agent_goals ("characterId", goal, paused) VALUES ($1, $2::text::jsonb, false)
         ON CONFLICT ("characterId") DO UPDATE SET goal = EXCLUDED.goal`,
        [alice.characterId, goal],
      );
    } finally {
      await db.close();
    }
    logLines.length = 0;
    await start();

    const c = await login(alice, 'msgpack');
    const sent = await c.next('agent:goal', 5000);
    expect(sent.payload).toEqual({ goal: null, goalsPaused: false });
    await expectWorking(c, 'alive after the deep goal');
    expect((await fetch(`${base}/health`)).status).toBe(200);
    const set = logLines.map((l) => JSON.parse(l)).filter((l) => l.table === 'agent_goals');
    expect(set).toEqual([
      expect.objectContaining({
        level: 40,
        column: 'goal',
        row: alice.characterId,
        reason: TOO_DEEP,
        msg: 'stored value set aside: over the JSON limits or not its shape',
      }),
    ]);
    // The dashboard reads no goal either, and a new one replaces the row.
    const read = await api(base, 'GET', `/api/agents/${alice.agentId}/goal`, { token: alice.token });
    expect((await jsonOf(read)).goal).toBeNull();
  });
});
