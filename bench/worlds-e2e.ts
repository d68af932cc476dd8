import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { pack, unpack } from 'msgpackr';
import postgres from 'postgres';
import WebSocket from 'ws';
import { SessionTokens } from '../net/auth/session-tokens.ts';
import { openPostgres } from '../persistence/drivers/postgres.ts';
import { migrate } from '../persistence/migrate.ts';
import { SqlPersistence } from '../persistence/sql-port.ts';
import { makeCharacter } from '../tests/helpers/characters.ts';
import { eventOf } from './load/protocol.ts';
import { type ServerProcess, startServer } from './load/server.ts';

/**
 * Several worlds end to end (issue 21): WORLDS real server processes (`src/main.ts`, WORLD_ID 1..n) on
 * one fresh PostgreSQL database and the local NATS, BOTS real WebSocket clients in each (msgpack; they
 * stand where their characters were saved, spread over the map, and do not walk). Each character has
 * FRIENDS friends: its namesakes in the other worlds plus random others anywhere.
 *
 *   1. Private messages: MESSAGES `player:chat {to}` from a random bot to a bot in another world (and,
 *      for comparison, the same number to a bot in the same world), RATE a second; latency from send
 *      to the receiver's `chat:message`. A private message needs no tick (docs/social.md): what is
 *      left is the NATS hop, and a tick that is running when it arrives in either world.
 *   2. Presence fan-out: CHURN bots leave (socket closed) over CHURN_SECONDS, then come back; latency
 *      from the close / the authenticate to each online friend's `friend:presence`, and how many of the
 *      expected deliveries arrived.
 *
 *   npm run bench:worlds:e2e                      # 3 worlds x 1,000 bots, 600 ms ticks
 *   TICK=50 npm run bench:worlds:e2e              # the share of the ticks in the latency
 *   BOTS=200 MESSAGES=500 npm run bench:worlds:e2e
 *
 * Needs PostgreSQL (TEST_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test: a database
 * `bench_worlds_<random>` is created on that server and dropped at the end) and NATS (NATS_URL, default
 * nats://127.0.0.1:4222).
 */

const env = process.env;
const WORLDS = Number(env['WORLDS'] ?? 3);
const BOTS = Number(env['BOTS'] ?? 1000);
const FRIENDS = Number(env['FRIENDS'] ?? 20);
const MESSAGES = Number(env['MESSAGES'] ?? 2000);
const RATE = Number(env['RATE'] ?? 50);
const CHURN = Number(env['CHURN'] ?? 150);
const CHURN_SECONDS = Number(env['CHURN_SECONDS'] ?? 15);
const TICK = Number(env['TICK'] ?? 600);
const PG_URL = env['TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
const NATS_URL = env['NATS_URL'] ?? 'nats://127.0.0.1:4222';
const JWT_SECRET = `bench-worlds-${randomBytes(16).toString('hex')}`;
const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Bot {
  index: number;
  world: number;
  id: string;
  name: string;
  token: string;
  friends: number[];
  ws?: WebSocket;
  inWorld: boolean;
}

const bots: Bot[] = [];
const byId = new Map<string, Bot>();

/** Latency samples (ms) and counters per measurement. */
const pmSent = new Map<string, { at: number; cross: boolean }>();
const pmLatency = { cross: [] as number[], same: [] as number[] };
/** Presence changes in flight: character id + online -> when it happened. */
const presenceCause = new Map<string, number>();
const presenceLatency = { offline: [] as number[], online: [] as number[] };
const presenceExpected = { offline: 0, online: 0 };
let loginsDone = 0;

function pct(xs: number[], p: number): number {
  if (xs.length === 0) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] as number;
}
const fmt = (xs: number[]) =>
  `n=${xs.length} p50 ${pct(xs, 50).toFixed(1)} ms, p95 ${pct(xs, 95).toFixed(1)} ms, p99 ${pct(xs, 99).toFixed(1)} ms, max ${pct(xs, 100).toFixed(1)} ms`;

async function seed(dbUrl: string): Promise<void> {
  const sql = await openPostgres({ url: dbUrl, max: 2 });
  try {
    await migrate(sql);
    const port = new SqlPersistence(sql);
    const tokens = await SessionTokens.fromSecret(JWT_SECRET);
    for (let w = 1; w <= WORLDS; w++) {
      const chunk = Array.from({ length: BOTS }, (_, i) => {
        const c = makeCharacter(randomBytes(16).toString('hex'), `W${w}b${i}`);
        c.position = {
          x: 20 + Math.floor(Math.random() * 1160),
          y: 0,
          z: 20 + Math.floor(Math.random() * 1160),
        };
        return { userName: `W${w}Guest${i}`, character: c };
      });
      await port.createAnonymousLogins(chunk);
      for (const e of chunk) {
        const bot: Bot = {
          index: bots.length,
          world: w,
          id: e.character.id,
          name: e.character.name,
          token: (await tokens.issue(e.character.accountId, true)).token,
          friends: [],
          inWorld: false,
        };
        bots.push(bot);
        byId.set(bot.id, bot);
      }
    }
    // Friends: the namesakes in the other worlds, then random others, both ways, up to FRIENDS each.
    const pairs = new Set<string>();
    const link = (a: Bot, b: Bot) => {
      if (a === b || a.friends.includes(b.index)) return;
      a.friends.push(b.index);
      b.friends.push(a.index);
      pairs.add(a.id < b.id ? `${a.id} ${b.id}` : `${b.id} ${a.id}`);
    };
    for (const b of bots)
      for (let w = 1; w <= WORLDS; w++)
        if (w !== b.world) link(b, bots[(w - 1) * BOTS + (b.index % BOTS)] as Bot);
    for (const b of bots) {
      for (let tries = 0; b.friends.length < FRIENDS && tries < FRIENDS * 4; tries++) {
        const other = bots[Math.floor(Math.random() * bots.length)] as Bot;
        if (other.friends.length < FRIENDS) link(b, other);
      }
    }
    const all = [...pairs].map((p) => p.split(' ') as [string, string]);
    for (let i = 0; i < all.length; i += 5000) {
      const part = all.slice(i, i + 5000);
      await sql.query(
        'INSERT INTO friendships ("characterA", "characterB") SELECT * FROM unnest($1::text[], $2::text[]) ON CONFLICT DO NOTHING',
        [part.map((p) => p[0]), part.map((p) => p[1])],
      );
    }
    console.log(
      `seeded ${bots.length} characters, ${all.length} friendships (${FRIENDS} friends each at most)`,
    );
  } finally {
    await sql.close();
  }
}

function connect(bot: Bot, url: string): Promise<void> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`${url}?encoding=msgpack`, { perMessageDeflate: false });
    bot.ws = ws;
    let entered = false;
    ws.on('open', () => ws.send(pack(['authenticate', { authToken: bot.token, characterId: bot.id }])));
    ws.on('message', (data: Buffer) => {
      const event = eventOf(data);
      if (event === 'player:sync') {
        if (!entered) {
          entered = true;
          bot.inWorld = true;
          loginsDone++;
          resolve();
        }
        return;
      }
      if (event !== 'chat:message' && event !== 'friend:presence' && event !== 'authResult') return;
      const now = performance.now();
      const [, p] = unpack(data) as [string, Record<string, unknown>];
      if (event === 'authResult' && p['success'] !== true) {
        console.error(`${bot.name}: login refused: ${String(p['error'])}`);
        resolve();
      } else if (event === 'chat:message' && p['channel'] === 'private' && p['fromId'] !== bot.id) {
        const sent = pmSent.get(String(p['message']));
        if (sent) {
          pmSent.delete(String(p['message']));
          (sent.cross ? pmLatency.cross : pmLatency.same).push(now - sent.at);
        }
      } else if (event === 'friend:presence') {
        const at = presenceCause.get(`${String(p['id'])} ${String(p['online'])}`);
        if (at !== undefined) (p['online'] ? presenceLatency.online : presenceLatency.offline).push(now - at);
      }
    });
    ws.on('close', () => {
      bot.inWorld = false;
      if (!entered) resolve();
    });
    ws.on('error', () => {});
  });
}

async function main(): Promise<void> {
  const dbName = `bench_worlds_${randomBytes(5).toString('hex')}`;
  const admin = postgres(PG_URL, { max: 1, onnotice: () => {} });
  await admin.unsafe(`CREATE DATABASE ${dbName}`);
  const dbUrl = (() => {
    const u = new URL(PG_URL);
    u.pathname = `/${dbName}`;
    return u.toString();
  })();
  const servers: ServerProcess[] = [];
  try {
    console.log(`${WORLDS} worlds x ${BOTS} bots, ${FRIENDS} friends each, tick ${TICK} ms`);
    await seed(dbUrl);
    const prefix = `bench_${randomBytes(4).toString('hex')}`;
    for (let w = 1; w <= WORLDS; w++) {
      servers.push(
        await startServer(REPO, TICK, {
          DATABASE_URL: dbUrl,
          NATS_URL,
          NATS_SUBJECT_PREFIX: prefix,
          WORLD_ID: String(w),
          JWT_SECRET,
        }),
      );
    }
    const urls = servers.map((s) => s.wsUrl);
    const urlOf = (b: Bot) => urls[b.world - 1] as string;

    // Everyone logs in, 200 a second in all.
    const t0 = performance.now();
    const logins: Promise<void>[] = [];
    for (const b of bots) {
      logins.push(connect(b, urlOf(b)));
      await sleep(5);
    }
    await Promise.all(logins);
    console.log(
      `${loginsDone} of ${bots.length} bots in their worlds after ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );
    await sleep(5000); // presence of the storm settles

    // 1. Private messages, across worlds and, for comparison, within one.
    const online = () => bots.filter((b) => b.inWorld);
    for (const cross of [true, false]) {
      for (let i = 0; i < MESSAGES; i++) {
        const from = online()[Math.floor(Math.random() * online().length)] as Bot;
        const candidates = bots.filter((b) => b.inWorld && b !== from && (b.world !== from.world) === cross);
        const to = candidates[Math.floor(Math.random() * candidates.length)] as Bot;
        const message = `pm ${cross ? 'x' : 's'} ${i}`;
        pmSent.set(message, { at: performance.now(), cross });
        from.ws?.send(pack(['player:chat', { message, to: to.name }]));
        await sleep(1000 / RATE);
      }
    }
    await sleep(3 * TICK + 1000);
    const lost = pmSent.size;

    // 2. Presence: CHURN bots leave over CHURN_SECONDS, then come back the same way.
    const leavers = [...bots].sort(() => Math.random() - 0.5).slice(0, CHURN);
    for (const b of leavers) {
      presenceExpected.offline += b.friends.filter((f) => bots[f]?.inWorld).length;
      presenceCause.set(`${b.id} false`, performance.now());
      b.ws?.close(1000);
      await sleep((CHURN_SECONDS * 1000) / CHURN);
    }
    await sleep(3 * TICK + 2000);
    for (const b of leavers) {
      presenceExpected.online += b.friends.filter((f) => bots[f]?.inWorld).length;
      presenceCause.set(`${b.id} true`, performance.now());
      void connect(b, urlOf(b));
      await sleep((CHURN_SECONDS * 1000) / CHURN);
    }
    await sleep(3 * TICK + 3000);

    const result = {
      worlds: WORLDS,
      botsPerWorld: BOTS,
      friendsEach: FRIENDS,
      tickMs: TICK,
      privateMessages: {
        acrossWorlds: fmt(pmLatency.cross),
        sameWorld: fmt(pmLatency.same),
        lost,
      },
      presence: {
        offline: `${fmt(presenceLatency.offline)}; delivered ${presenceLatency.offline.length} of ${presenceExpected.offline} expected`,
        online: `${fmt(presenceLatency.online)}; delivered ${presenceLatency.online.length} of ${presenceExpected.online} expected`,
      },
    };
    console.log(JSON.stringify(result, null, 2));
  } finally {
    for (const b of bots) b.ws?.terminate();
    for (const s of servers) await s.stop();
    await admin.unsafe(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await admin.end();
  }
}

await main();
