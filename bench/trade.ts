import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setImmediate as yieldToIo } from 'node:timers/promises';
import postgres from 'postgres';
import { type CharacterState, emptyInventory } from '../ecs/core/character-state.ts';
import type { Command } from '../ecs/core/commands.ts';
import { populateWorld } from '../ecs/core/populate.ts';
import { newSkills } from '../ecs/core/skills.ts';
import { stepWorld } from '../ecs/core/tick.ts';
import type { GameWorld } from '../ecs/core/world.ts';
import { tradeIdOf } from '../ecs/features/trade/index.ts';
import { createGameWorld } from '../ecs/game.ts';
import { openPglite } from '../persistence/drivers/pglite.ts';
import { openPostgres } from '../persistence/drivers/postgres.ts';
import { migrate } from '../persistence/migrate.ts';
import { SaveScheduler } from '../persistence/save-scheduler.ts';
import type { SqlClient } from '../persistence/sql.ts';
import { SqlPersistence } from '../persistence/sql-port.ts';
import { handOff } from '../src/persistence-handoff.ts';
import { schedulerSink } from '../src/persistence-sink.ts';
import { shopContent } from '../tests/helpers/shop-content.ts';
import { testContent } from '../tests/helpers/sim-content.ts';

/**
 * npm run bench:trade — 1,000 trades between 2,000 players, all started in the same tick, completing
 * concurrently in an in-process world whose item transactions run in the real persistence
 * (SqlPersistence + SaveScheduler) on PostgreSQL (BENCH_PG_URL, default 127.0.0.1:5432/test, throwaway
 * schema) and on PGlite. Reports trades/s (first request to last tradeCompleted) and the tick time
 * (simulation + hand-over to persistence) p50/p99/max while they run, then checks the database: every
 * sword, log and coin moved exactly once.
 *
 * Then shop buys: BENCH_SHOP_BUYS players (default 1000) standing at a shopkeeper each buy one item in
 * the same tick, every purchase its own item transaction (shop_buy); reports purchases/s (the buy
 * commands to the last txResult) and checks that the database shows each purchase once.
 *
 * BENCH_TRADES (default 1000), BENCH_TICK_MS (default 0: step as fast as possible, yielding to I/O
 * between ticks; 600 = the real tick), BENCH_DRIVERS (default "postgres,pglite").
 */

const TRADES = Number(process.env['BENCH_TRADES'] ?? 1000);
const SHOP_BUYS = Number(process.env['BENCH_SHOP_BUYS'] ?? 1000);
const TICK_MS = Number(process.env['BENCH_TICK_MS'] ?? 0);
const DRIVERS = (process.env['BENCH_DRIVERS'] ?? 'postgres,pglite').split(',');
const PG_URL = process.env['BENCH_PG_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
const quiet = { info: () => {}, warn: () => {}, error: (o: object, m?: string) => console.error(m, o) };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Pair k: seller at (x, z) with a sword and 10 feathers; buyer at (x + 1, z) with logs and 100 coins. */
function pair(accountId: string, k: number): [CharacterState, CharacterState] {
  const x = 2 + (k % 32) * 6;
  const z = 2 + Math.floor(k / 32) * 5;
  const make = (name: string, px: number): CharacterState => ({
    id: randomUUID(),
    accountId,
    name,
    position: { x: px, y: 0, z },
    health: 100,
    coins: 0,
    skills: newSkills(),
    inventory: emptyInventory(),
    equipment: {},
    bank: [],
  });
  const seller = make(`Seller${k}`, x);
  seller.inventory[0] = { itemId: 'bronze_sword', quantity: 1 };
  seller.inventory[1] = { itemId: 'feather', quantity: 10 };
  const buyer = make(`Buyer${k}`, x + 1);
  buyer.inventory[0] = { itemId: 'logs', quantity: 1 };
  buyer.coins = 100;
  return [seller, buyer];
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

async function run(name: string, db: SqlClient): Promise<void> {
  await migrate(db);
  const port = new SqlPersistence(db);
  const account = (await port.createAnonymousUser('bench')).id;
  const pairs = Array.from({ length: TRADES }, (_, k) => pair(account, k));
  const all = pairs.flat();
  for (let i = 0; i < all.length; i += 50) {
    await Promise.all(all.slice(i, i + 50).map((c) => port.createCharacter(c)));
  }
  const saves = new SaveScheduler(port, { saveIntervalMs: 60_000, logger: quiet });
  const log = quiet;
  const sink = schedulerSink({ port, saves }, log);
  const world = createGameWorld({ content: testContent({ npcSpawns: [] }), seed: 1, tickMs: TICK_MS || 600 });
  let queue: Command[] = all.map((c) => ({ type: 'join', characterId: c.id, accountId: account, state: c }));
  /** Simulation + hand-over, and the simulation alone. */
  const tickTimes: number[] = [];
  const simTimes: number[] = [];
  let completed = 0;
  let failed = 0;
  let inFlight = 0;

  /** One tick: the simulation, then the hand-over of its outbox to persistence (what src/ will do). */
  const tick = (w: GameWorld): void => {
    const t0 = performance.now();
    const cmds = queue;
    queue = [];
    stepWorld(w, cmds, Date.now());
    simTimes.push(performance.now() - t0);
    for (const e of w.events) {
      if (e.kind === 'tradeCompleted') completed += 1;
      if (e.kind === 'tradeCancelled' && e.data.reason === 'failed') failed += 1;
    }
    inFlight += w.persist.transactions.length;
    handOff(
      w,
      sink,
      {
        push: (cmd) => {
          inFlight -= 1;
          queue.push(cmd);
        },
      },
      log,
    );
    tickTimes.push(performance.now() - t0);
  };

  tick(world);
  tickTimes.length = 0;
  simTimes.length = 0;
  const script: ((s: CharacterState, b: CharacterState, tradeId: string) => Command[])[] = [
    (_s, b, t) => [{ type: 'tradeRespond', characterId: b.id, tradeId: t, accept: true }],
    (s, b, t) => [
      { type: 'tradeAddItem', characterId: s.id, tradeId: t, inventorySlot: 0 },
      { type: 'tradeAddItem', characterId: s.id, tradeId: t, inventorySlot: 1, quantity: 4 },
      { type: 'tradeAddItem', characterId: b.id, tradeId: t, inventorySlot: 0 },
      { type: 'tradeSetCoins', characterId: b.id, tradeId: t, coins: 75 },
    ],
    (s, b, t) => [
      { type: 'tradeAccept', characterId: s.id, tradeId: t },
      { type: 'tradeAccept', characterId: b.id, tradeId: t },
    ],
    (s, b, t) => [
      { type: 'tradeAccept', characterId: s.id, tradeId: t },
      { type: 'tradeAccept', characterId: b.id, tradeId: t },
    ],
  ];
  const start = performance.now();
  queue.push(
    ...pairs.map(([s, b]): Command => ({ type: 'tradeRequest', characterId: s.id, targetPlayerId: b.id })),
  );
  tick(world);
  for (const step of script) {
    for (const [s, b] of pairs) queue.push(...step(s, b, tradeIdOf(world, s.id) ?? ''));
    tick(world);
    if (TICK_MS > 0) await sleep(TICK_MS);
    else await yieldToIo();
  }
  while (completed + failed < 2 * TRADES) {
    if (TICK_MS > 0) await sleep(TICK_MS);
    else await sleep(1);
    if (queue.length > 0 || TICK_MS > 0) tick(world);
    if (performance.now() - start > 120_000)
      throw new Error(`stuck: ${completed} completed, ${inFlight} in flight`);
  }
  const seconds = (performance.now() - start) / 1000;
  await saves.flushAll();
  const sorted = [...tickTimes].sort((a, b) => a - b);
  const sim = [...simTimes].sort((a, b) => a - b);
  console.log(
    `${name}: ${TRADES} trades (${2 * TRADES} players) in ${seconds.toFixed(2)} s = ${(TRADES / seconds).toFixed(0)} trades/s; ` +
      `failed ${failed / 2}; ${tickTimes.length} ticks (${TICK_MS > 0 ? `${TICK_MS} ms` : 'as fast as possible'}), ` +
      `tick with hand-over p50 ${percentile(sorted, 50).toFixed(2)} ms, p99 ${percentile(sorted, 99).toFixed(2)} ms, ` +
      `max ${(sorted.at(-1) ?? 0).toFixed(2)} ms; simulation alone p99 ${percentile(sim, 99).toFixed(2)} ms, ` +
      `max ${(sim.at(-1) ?? 0).toFixed(2)} ms`,
  );
  // The database after the run: every pair swapped exactly once.
  let wrong = 0;
  for (const [s, b] of pairs.slice(0, Math.min(200, TRADES))) {
    const [ls, lb] = await Promise.all([port.loadCharacter(s.id), port.loadCharacter(b.id)]);
    const ok =
      ls?.coins === 75 &&
      ls.inventory[0]?.itemId === 'logs' &&
      ls.inventory[1]?.quantity === 6 &&
      lb?.coins === 25 &&
      lb.inventory.filter((x) => x?.itemId === 'bronze_sword').length === 1 &&
      lb.inventory.some((x) => x?.itemId === 'feather' && x.quantity === 4);
    if (!ok) wrong += 1;
  }
  if (wrong > 0) throw new Error(`${name}: ${wrong} pairs in the database do not show the swap`);
  console.log(`${name}: database checked (first ${Math.min(200, TRADES)} pairs swapped exactly once)`);
}

/** BENCH_SHOP_BUYS players around the `general` shopkeeper (102, 100) each buy 3 feathers at once. */
async function runShop(name: string, db: SqlClient): Promise<void> {
  const port = new SqlPersistence(db);
  const account = (await port.createAnonymousUser('bench-shop')).id;
  const around = [
    [101, 99],
    [101, 100],
    [101, 101],
    [102, 99],
    [102, 101],
    [103, 99],
    [103, 100],
    [103, 101],
  ] as const;
  const buyers = Array.from({ length: SHOP_BUYS }, (_, k): CharacterState => {
    const [x, z] = around[k % around.length] as readonly [number, number];
    return {
      id: randomUUID(),
      accountId: account,
      name: `Shopper${k}`,
      position: { x, y: 0, z },
      health: 100,
      coins: 100,
      skills: newSkills(),
      inventory: emptyInventory(),
      equipment: {},
      bank: [],
    };
  });
  for (let i = 0; i < buyers.length; i += 50) {
    await Promise.all(buyers.slice(i, i + 50).map((c) => port.createCharacter(c)));
  }
  const saves = new SaveScheduler(port, { saveIntervalMs: 60_000, logger: quiet });
  const sink = schedulerSink({ port, saves }, quiet);
  const world = createGameWorld({ content: shopContent(), seed: 1, tickMs: TICK_MS || 600 });
  populateWorld(world);
  let queue: Command[] = buyers.map((c) => ({
    type: 'join',
    characterId: c.id,
    accountId: account,
    state: c,
  }));
  let done = 0;
  let failed = 0;
  const tick = (): void => {
    const cmds = queue;
    queue = [];
    stepWorld(world, cmds, Date.now());
    for (const c of cmds) {
      if (c.type !== 'txResult') continue;
      if (c.ok) done += 1;
      else failed += 1;
    }
    handOff(world, sink, { push: (cmd) => queue.push(cmd) }, quiet);
  };
  tick();
  const keeper = 'npc-1';
  queue.push(
    ...buyers.map((c): Command => ({ type: 'action', characterId: c.id, action: 'shop', targetId: keeper })),
  );
  tick();
  const opened = world.events.filter((e) => e.kind === 'shopOpen').length;
  if (opened !== SHOP_BUYS) throw new Error(`${name}: ${opened} of ${SHOP_BUYS} shops opened`);
  const start = performance.now();
  queue.push(
    ...buyers.map(
      (c): Command => ({
        type: 'shopBuy',
        characterId: c.id,
        shopId: 'general',
        itemId: 'feather',
        quantity: 3,
      }),
    ),
  );
  tick();
  while (done + failed < SHOP_BUYS) {
    if (TICK_MS > 0) await sleep(TICK_MS);
    else await sleep(1);
    if (queue.length > 0 || TICK_MS > 0) tick();
    if (performance.now() - start > 120_000) throw new Error(`${name}: stuck at ${done} purchases`);
  }
  const seconds = (performance.now() - start) / 1000;
  await saves.flushAll();
  console.log(
    `${name}: ${SHOP_BUYS} shop purchases (one transaction each) in ${seconds.toFixed(2)} s = ` +
      `${(SHOP_BUYS / seconds).toFixed(0)} purchases/s; failed ${failed}`,
  );
  let wrong = 0;
  for (const c of buyers.slice(0, Math.min(200, SHOP_BUYS))) {
    const l = await port.loadCharacter(c.id);
    if (
      l?.coins !== 91 ||
      l.inventory.filter((x) => x?.itemId === 'feather' && x.quantity === 3).length !== 1
    )
      wrong += 1;
  }
  if (wrong > 0) throw new Error(`${name}: ${wrong} buyers in the database do not show their purchase once`);
  console.log(
    `${name}: database checked (first ${Math.min(200, SHOP_BUYS)} buyers paid 9 coins for 3 feathers, once)`,
  );
}

async function main(): Promise<void> {
  if (DRIVERS.includes('postgres')) {
    const schema = `bench_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
    let pg: SqlClient | undefined;
    try {
      pg = await openPostgres({ url: PG_URL, schema, max: 8 });
      await run('postgres', pg);
      if (SHOP_BUYS > 0) await runShop('postgres', pg);
    } catch (err) {
      console.error(`postgres: ${err instanceof Error ? err.message : String(err)}`);
      process.exitCode = 1;
    } finally {
      await pg?.close();
      const admin = postgres(PG_URL, { max: 1, onnotice: () => {} });
      await admin.unsafe(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch(() => {});
      await admin.end();
    }
  }
  if (DRIVERS.includes('pglite')) {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-trade-pglite-'));
    const lite = await openPglite(dir);
    try {
      await run('pglite (worker thread)', lite);
      if (SHOP_BUYS > 0) await runShop('pglite (worker thread)', lite);
    } finally {
      await lite.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }
}

await main();
