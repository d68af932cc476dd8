import { type ChildProcess, spawn } from 'node:child_process';
import { openPglite } from '../../persistence/drivers/pglite.ts';
import { openPostgres } from '../../persistence/drivers/postgres.ts';
import type { SqlClient } from '../../persistence/sql.ts';
import type { TestDb } from './db.ts';

/**
 * The SIGKILL harness shared by the crash tests: run a child script on a test database, wait until it
 * reports progress (a stdout line matching `progress`, whose number is the count so far), then kill it
 * at a random moment within `killWithinMs`. Resolves with the last count the child reported.
 */
export interface CrashChild {
  script: string;
  db: TestDb;
  ids: string[];
  /** e.g. /^committed (\d+)/ */
  progress: RegExp;
  /** [min, max) delay after the first progress line before SIGKILL. */
  killWithinMs: [number, number];
  /** Fail when no progress line came in this time. */
  noProgressMs: number;
  /** Print the child's stderr after it exits (debugging). */
  debug?: boolean;
}

export async function runChildAndKill(opts: CrashChild): Promise<number> {
  const { db } = opts;
  const env: NodeJS.ProcessEnv = { ...process.env, CRASH_IDS: opts.ids.join(',') };
  if (db.location.pgliteDataDir) env['CRASH_PGLITE_DIR'] = db.location.pgliteDataDir;
  if (db.location.url) env['CRASH_PG_URL'] = db.location.url;
  if (db.location.schema) env['CRASH_PG_SCHEMA'] = db.location.schema;
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', opts.script], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const name = opts.script.split('/').pop();
  let count = 0;
  let stderr = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const killed = new Promise<void>((resolve, reject) => {
    child.stderr?.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    child.stdout?.on('data', (d: Buffer) => {
      for (const line of d.toString().split('\n')) {
        const m = opts.progress.exec(line);
        if (m && count === 0) {
          // Kill at a random point once work is flowing.
          const [min, max] = opts.killWithinMs;
          setTimeout(
            () => {
              child.kill('SIGKILL');
              resolve();
            },
            min + Math.random() * (max - min),
          );
        }
        if (m) count = Number(m[1]);
      }
    });
    child.once('exit', (code, signal) => {
      if (opts.debug) console.log(`${name} stderr:`, stderr.slice(0, 3000));
      if (signal !== 'SIGKILL') reject(new Error(`${name} exited by itself (${code}): ${stderr}`));
    });
    setTimeout(
      () => reject(new Error(`${name} made no progress in ${opts.noProgressMs} ms: ${stderr}`)),
      opts.noProgressMs,
    );
  });
  try {
    await killed;
  } finally {
    child.kill('SIGKILL');
    await exited;
  }
  return count;
}

/**
 * The conservation oracle of the crash tests: the total of every item id, and of coins, across all
 * characters (inventory + bank + equipment + the coin pouch).
 */
export async function itemTotals(sql: SqlClient): Promise<Record<string, number>> {
  const rows = await sql.query<{ itemId: string; n: number }>(
    `SELECT "itemId", sum(quantity)::int AS n FROM (
       SELECT "itemId", quantity FROM inventory UNION ALL SELECT "itemId", quantity FROM bank
       UNION ALL SELECT "itemId", quantity FROM equipment UNION ALL SELECT 'coins', coins FROM characters
     ) AS all_items GROUP BY "itemId" ORDER BY "itemId"`,
  );
  return Object.fromEntries(rows.map((r) => [r.itemId, r.n]));
}

/** In the child: the character ids and the database runChildAndKill passed through the environment. */
export async function openCrashChildDb(): Promise<{ ids: string[]; db: SqlClient }> {
  const ids = (process.env['CRASH_IDS'] ?? '').split(',').filter(Boolean);
  const dir = process.env['CRASH_PGLITE_DIR'];
  const db = dir
    ? await openPglite(dir)
    : await openPostgres({
        url: process.env['CRASH_PG_URL'] ?? '',
        schema: process.env['CRASH_PG_SCHEMA'] ?? '',
        max: 6,
      });
  return { ids, db };
}
