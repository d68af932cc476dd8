import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { migrate } from '../../persistence/migrate.ts';
import type { SqlClient } from '../../persistence/sql.ts';
import { SqlPersistence } from '../../persistence/sql-port.ts';
import { inventoryOf, makeCharacter } from '../helpers/characters.ts';
import { pgliteTestDb, postgresAvailable, postgresTestDb, TEST_PG_URL, type TestDb } from '../helpers/db.ts';

/**
 * Crash safety (contract §5): a child moves items with concurrent item transactions and death locks and
 * is SIGKILLed at random points, then restarted on the same data; every item id's total quantity and
 * the coins across all characters (inventory + bank + equipment + coins) never change.
 */

const MOVER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'mover.ts');
/** PGlite reopens take 1-3 s each (WASM start in a worker), so it gets fewer rounds. */
const KILLS = { pglite: 3, postgres: 5 } as const;

async function totals(sql: SqlClient): Promise<Record<string, number>> {
  const rows = await sql.query<{ itemId: string; n: number }>(
    `SELECT "itemId", sum(quantity)::int AS n FROM (
       SELECT "itemId", quantity FROM inventory UNION ALL SELECT "itemId", quantity FROM bank
       UNION ALL SELECT "itemId", quantity FROM equipment UNION ALL SELECT 'coins', coins FROM characters
     ) AS all_items GROUP BY "itemId" ORDER BY "itemId"`,
  );
  return Object.fromEntries(rows.map((r) => [r.itemId, r.n]));
}

async function seed(db: TestDb): Promise<string[]> {
  const sql = await db.connect();
  try {
    await migrate(sql);
    const port = new SqlPersistence(sql);
    const account = (await port.createAnonymousUser('crash')).id;
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) {
      const c = makeCharacter(account, `Crash${i}`, {
        coins: 500 + i,
        inventory: inventoryOf({
          0: { itemId: 'logs', quantity: 10 + i },
          1: { itemId: 'ore', quantity: 3 },
          5: { itemId: `gem_${i % 3}`, quantity: 1 },
        }),
        bank: [{ itemId: 'fish', quantity: 7 }],
        equipment: { weapon: { itemId: 'bronze_sword', quantity: 1 } },
      });
      ids.push((await port.createCharacter(c)).id);
    }
    return ids;
  } finally {
    await sql.close();
  }
}

/** Starts the mover, waits until it has committed something, kills it at a random later point. */
async function runAndKill(db: TestDb, ids: string[]): Promise<number> {
  const env: NodeJS.ProcessEnv = { ...process.env, CRASH_IDS: ids.join(',') };
  if (db.location.pgliteDataDir) env['CRASH_PGLITE_DIR'] = db.location.pgliteDataDir;
  if (db.location.url) env['CRASH_PG_URL'] = db.location.url;
  if (db.location.schema) env['CRASH_PG_SCHEMA'] = db.location.schema;
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', MOVER], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let committed = 0;
  let stderr = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const killed = new Promise<void>((resolve, reject) => {
    child.stderr?.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    child.stdout?.on('data', (d: Buffer) => {
      for (const line of d.toString().split('\n')) {
        const m = /^committed (\d+)/.exec(line);
        if (m && committed === 0) {
          // Kill at a random point once moves are flowing.
          setTimeout(
            () => {
              child.kill('SIGKILL');
              resolve();
            },
            50 + Math.random() * 700,
          );
        }
        if (m) committed = Number(m[1]);
      }
    });
    child.once('exit', (code, signal) => {
      if (signal !== 'SIGKILL') reject(new Error(`mover exited by itself (${code}): ${stderr}`));
    });
    setTimeout(() => reject(new Error(`mover made no progress in 20 s: ${stderr}`)), 20_000);
  });
  try {
    await killed;
  } finally {
    child.kill('SIGKILL');
    await exited;
  }
  return committed;
}

async function crashScenario(db: TestDb): Promise<void> {
  try {
    const ids = await seed(db);
    const check = await db.connect();
    const expected = await totals(check);
    await check.close();
    let committed = 0;
    for (let i = 0; i < KILLS[db.name]; i++) {
      committed += await runAndKill(db, ids);
      const sql = await db.connect();
      try {
        // What a restart does first: recover death locks; then the totals must be unchanged.
        await new SqlPersistence(sql).recoverDeathLocks();
        expect(await totals(sql), `after kill ${i + 1}`).toEqual(expected);
      } finally {
        await sql.close();
      }
    }
    expect(committed, 'the movers committed transactions before being killed').toBeGreaterThan(0);
  } finally {
    await db.destroy();
  }
}

const pgUp = await postgresAvailable();
if (!pgUp && process.env['CI'] !== 'true') {
  console.warn(`SKIPPING PostgreSQL crash test: nothing answers at ${TEST_PG_URL}`);
}

describe('crash safety under SIGKILL', () => {
  it('PGlite: no item or coin is created or lost', async () => {
    await crashScenario(pgliteTestDb());
  }, 120_000);

  it.skipIf(!pgUp && process.env['CI'] !== 'true')(
    'PostgreSQL: no item or coin is created or lost',
    async () => {
      if (!pgUp) throw new Error(`PostgreSQL is required in CI and does not answer at ${TEST_PG_URL}`);
      await crashScenario(postgresTestDb());
    },
    120_000,
  );
});
