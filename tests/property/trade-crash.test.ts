import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { migrate } from '../../persistence/migrate.ts';
import { SqlPersistence } from '../../persistence/sql-port.ts';
import { inventoryOf, makeCharacter } from '../helpers/characters.ts';
import { itemTotals, runChildAndKill } from '../helpers/crash-child.ts';
import { pgliteTestDb, postgresAvailable, postgresTestDb, TEST_PG_URL, type TestDb } from '../helpers/db.ts';

/**
 * Trades under SIGKILL (issue 7's fault test, at the simulation + persistence level: the full server's
 * version needs the integrated tick loop and transport). A child runs the simulation with the real
 * persistence (trades, bank, deaths with death locks, pickups, reconnects) and is killed at random
 * moments; after each restart (death-lock recovery) every item id's total and the coins are unchanged.
 */

const TRADER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'trader.ts');
const KILLS = { pglite: 3, postgres: 5 } as const;
const HOME: [number, number][] = [
  [98, 100],
  [99, 100],
  [98, 101],
  [99, 101],
  [98, 99],
  [99, 99],
];

async function seed(db: TestDb): Promise<string[]> {
  const sql = await db.connect();
  try {
    await migrate(sql);
    const port = new SqlPersistence(sql);
    const account = (await port.createAnonymousUser('trader')).id;
    const ids: string[] = [];
    for (const [i, [x, z]] of HOME.entries()) {
      const c = makeCharacter(account, `Trader${i}`, {
        position: { x, y: 0, z },
        coins: 200 + i,
        inventory: inventoryOf({
          0: { itemId: 'logs', quantity: 1 },
          1: { itemId: 'feather', quantity: 10 + i },
          2: { itemId: 'bronze_sword', quantity: 1 },
          3: { itemId: 'bones', quantity: 1 },
          4: { itemId: 'shrimp', quantity: 1 },
        }),
        bank: [{ itemId: 'logs', quantity: 3 }],
        equipment: { shield: { itemId: 'wooden_shield', quantity: 1 } },
      });
      ids.push((await port.createCharacter(c)).id);
    }
    return ids;
  } finally {
    await sql.close();
  }
}

/** Runs the child on the database and SIGKILLs it at a random moment once it makes progress. */
function runAndKill(db: TestDb, ids: string[]): Promise<number> {
  return runChildAndKill({
    script: TRADER,
    db,
    ids,
    progress: /^completed (\d+)/,
    killWithinMs: [100, 1600],
    // The child starts through tsx and opens a database that was just killed: on a busy CI machine the
    // first completed trade took more than 30 s (once in a full run).
    noProgressMs: 90_000,
    debug: Boolean(process.env['TRADE_CRASH_DEBUG']),
  });
}

async function crashScenario(db: TestDb): Promise<void> {
  try {
    const ids = await seed(db);
    const check = await db.connect();
    const expected = await itemTotals(check);
    await check.close();
    let completed = 0;
    for (let i = 0; i < KILLS[db.name]; i++) {
      completed += await runAndKill(db, ids);
      const sql = await db.connect();
      try {
        if (process.env['TRADE_CRASH_DEBUG']) {
          const locks = await sql.query<{ id: string; items: unknown }>(
            'SELECT id, items FROM "playerDeaths"',
          );
          console.log(
            'before recovery',
            JSON.stringify(await itemTotals(sql)),
            'locks',
            JSON.stringify(locks),
          );
        }
        await new SqlPersistence(sql).recoverDeathLocks();
        expect(await itemTotals(sql), `after kill ${i + 1}`).toEqual(expected);
      } finally {
        await sql.close();
      }
    }
    expect(completed, 'trades completed before the kills').toBeGreaterThan(0);
  } finally {
    await db.destroy();
  }
}

const pgUp = await postgresAvailable();
if (!pgUp && process.env['CI'] !== 'true') {
  console.warn(`SKIPPING PostgreSQL trade crash test: nothing answers at ${TEST_PG_URL}`);
}

describe('trades under SIGKILL', () => {
  it('PGlite: no item or coin is duplicated or lost', async () => {
    await crashScenario(pgliteTestDb());
  }, 180_000);

  it.skipIf(!pgUp && process.env['CI'] !== 'true')(
    'PostgreSQL: no item or coin is duplicated or lost',
    async () => {
      if (!pgUp) throw new Error(`PostgreSQL is required in CI and does not answer at ${TEST_PG_URL}`);
      await crashScenario(postgresTestDb());
    },
    180_000,
  );
});
