import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { itemTotals } from '../helpers/crash-child.ts';
import { postgresAvailable, TEST_PG_URL } from '../helpers/db.ts';
import { pgliteServerDb, postgresServerDb, type ServerDb } from '../helpers/server-db.ts';
import { freePort, type ServerProcess, startServerProcess } from '../helpers/server-process.ts';
import { GameClient, type Login } from './game-client.ts';

/**
 * Shop buys and sells over the REAL server (src/main.ts in a child) while it is SIGKILLed at random
 * moments and restarted on the same data. Players buy and sell fishing nets at Odalys' general store
 * (price 10, sold back at floor(8 x 0.5) = 4), one at a time. Every committed buy and sell leaves one
 * `item_transactions` row of its kind, so at the end, for B buys and S sales in the database:
 * coins = granted coins - 10 B + 4 S and nets = granted nets + B - S, across all characters. A buy
 * half-applied, applied twice or lost after being shown would break one of the two.
 */

const KILLS = 3;
const ADMIN_CODE = `shop-crash-admin-${randomBytes(6).toString('hex')}`;
const JWT_SECRET = randomBytes(32).toString('hex');
const SHOP = 'emberfold_general';
const KEEPER = 'trader_odalys';
const ITEM = 'fishing_net';
const PRICE = 10;
const SELL_PRICE = 4;
/** Next to Odalys (606, 612). */
const SPOTS: [number, number][] = [
  [605, 611],
  [605, 612],
  [605, 613],
];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let server: ServerProcess | undefined;
let clients: GameClient[] = [];
afterEach(async () => {
  for (const c of clients) c.close();
  clients = [];
  await server?.kill();
  server = undefined;
});

async function boot(db: ServerDb): Promise<ServerProcess> {
  const port = await freePort();
  server = await startServerProcess({
    ...db.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    NODE_ENV: 'test',
    WORLD: 'world',
    SKIP_MANIFESTS: 'true',
    SKIP_ASSETS: 'true',
    TICK_MS: '50',
    SAVE_INTERVAL: '1',
    ADMIN_CODE,
    JWT_SECRET,
    DISABLE_RATE_LIMIT: 'true',
    LOG_LEVEL: 'warn',
  });
  return server;
}

/** Connects every player, makes it admin, stands it next to the keeper; returns the keeper's wire id. */
async function enter(
  srv: ServerProcess,
  logins: (Login | undefined)[],
): Promise<{ players: GameClient[]; keeper: string }> {
  const players = await Promise.all(logins.map((l) => GameClient.connect(srv.wsUrl, l)));
  clients = players;
  for (const [i, c] of players.entries()) {
    expect(await c.command(`/admin ${ADMIN_CODE}`)).not.toMatch(/only|forbidden/i);
    const [x, z] = SPOTS[i] as [number, number];
    expect(await c.command(`/tp ${x} ${z}`)).toBe(`Teleported to ${x}, ${z}.`);
  }
  const until = Date.now() + 10_000;
  const find = () => [...(players[0]?.npcs ?? [])].find(([, npcId]) => npcId === KEEPER)?.[0] ?? '';
  while (find() === '' && Date.now() < until) await sleep(50);
  const keeper = find();
  expect(keeper).not.toBe('');
  return { players, keeper };
}

interface Stats {
  buys: number;
  sells: number;
}

/** Opens the shop, then buys or sells one net at a time until the socket closes. */
async function shopLoop(c: GameClient, keeper: string, stats: Stats): Promise<void> {
  try {
    const opened = c.waitFor((m) => m.event === 'shop:open', 10_000);
    c.send('player:action', { action: 'shop', targetId: keeper });
    await opened;
    while (!c.closed) {
      const coins = c.sync.coins as number;
      const slot = (c.sync.inventory as ({ itemId: string } | null)[]).findIndex((s) => s?.itemId === ITEM);
      const sell = slot >= 0 && Math.random() < 0.45;
      const done = c.waitFor(
        (m) => (m.event === 'player:sync' && m.payload.coins !== coins) || m.event === 'error',
        10_000,
      );
      if (sell) c.send('shop:sell', { shopId: SHOP, slot, quantity: 1 });
      else c.send('shop:buy', { shopId: SHOP, itemId: ITEM, quantity: 1 });
      const m = await done;
      if (m.event === 'error') {
        if (m.payload.code === 'NOT_FOUND') return; // the shop closed
        await sleep(20);
        continue;
      }
      if (sell) stats.sells += 1;
      else stats.buys += 1;
    }
  } catch {
    // The server was killed under us.
  }
}

async function scenario(db: ServerDb): Promise<void> {
  try {
    let srv = await boot(db);
    let { players, keeper } = await enter(
      srv,
      SPOTS.map(() => undefined),
    );
    for (const c of players) expect(await c.command('/coins 5000')).toMatch(/^You now have/);
    await sleep(500);
    const granted = { coins: 0, nets: 0 };
    for (const c of players) {
      granted.coins += c.sync.coins as number;
      for (const s of c.sync.inventory as ({ itemId: string; quantity: number } | null)[])
        if (s?.itemId === ITEM) granted.nets += s.quantity;
    }
    const logins = players.map((c) => c.login);
    const stats: Stats = { buys: 0, sells: 0 };
    for (let round = 0; round < KILLS; round++) {
      const loops = players.map((c) => shopLoop(c, keeper, stats));
      const before = stats.buys + stats.sells;
      const until = Date.now() + 15_000;
      while (stats.buys + stats.sells < before + 10 && Date.now() < until) await sleep(50);
      await sleep(Math.random() * 400);
      await srv.kill();
      for (const c of players) c.close();
      await Promise.all(loops);
      srv = await boot(db);
      ({ players, keeper } = await enter(srv, logins));
      expect(players.map((c) => c.id)).toEqual(logins.map((l) => l.characterId));
    }
    // One more round of trading without a kill, then a graceful stop (everything saved from memory).
    const loops = players.map((c) => shopLoop(c, keeper, stats));
    await sleep(1000);
    expect(await srv.stop(), `graceful shutdown:\n${srv.output()}`).toBe(0);
    server = undefined;
    for (const c of players) c.close();
    await Promise.all(loops);
    expect(stats.buys, 'buys shown to players').toBeGreaterThan(KILLS);
    expect(stats.sells, 'sales shown to players').toBeGreaterThan(0);
    const sql = await db.open();
    try {
      const kinds = await sql.query<{ kind: string; n: number }>(
        `SELECT kind, count(*)::int AS n FROM item_transactions WHERE kind IN ('shop_buy', 'shop_sell') GROUP BY kind`,
      );
      const count = (k: string) => kinds.find((r) => r.kind === k)?.n ?? 0;
      const b = count('shop_buy');
      const s = count('shop_sell');
      // Everything shown to a player was committed (a kill may also commit one not yet shown).
      expect(b).toBeGreaterThanOrEqual(stats.buys);
      expect(s).toBeGreaterThanOrEqual(stats.sells);
      const totals = await itemTotals(sql);
      expect({ coins: totals['coins'] ?? 0, nets: totals[ITEM] ?? 0 }).toEqual({
        coins: granted.coins - PRICE * b + SELL_PRICE * s,
        nets: granted.nets + b - s,
      });
    } finally {
      await sql.close();
    }
  } finally {
    await server?.kill();
    server = undefined;
    await db.destroy();
  }
}

const pgUp = await postgresAvailable();
if (!pgUp && process.env['CI'] !== 'true') {
  console.warn(`SKIPPING PostgreSQL shop crash test: nothing answers at ${TEST_PG_URL}`);
}

describe('shop buys and sells over the real server under SIGKILL', () => {
  it('PGlite: every committed buy and sale moved coins and items together, once', async () => {
    await scenario(pgliteServerDb('shop-crash'));
  }, 180_000);

  // Skipped only without PostgreSQL outside CI (warned above); in CI it runs and fails without it.
  it.skipIf(!pgUp && process.env['CI'] !== 'true')(
    'PostgreSQL: every committed buy and sale moved coins and items together, once',
    async () => {
      if (!pgUp) throw new Error(`PostgreSQL is required in CI and does not answer at ${TEST_PG_URL}`);
      await scenario(await postgresServerDb('shop_crash'));
    },
    180_000,
  );
});
