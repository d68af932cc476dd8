import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import postgres from 'postgres';
import { type CharacterState, INVENTORY_SLOTS } from '../ecs/core/character-state.ts';
import { newSkills } from '../ecs/core/skills.ts';
import { openPglite } from '../persistence/drivers/pglite.ts';
import { openPostgres } from '../persistence/drivers/postgres.ts';
import { migrate } from '../persistence/migrate.ts';
import { SaveScheduler } from '../persistence/save-scheduler.ts';
import type { SqlClient } from '../persistence/sql.ts';
import { SqlPersistence } from '../persistence/sql-port.ts';

/**
 * npm run bench:save — saves 10,000 dirty characters with full 28-slot inventories through the
 * SaveScheduler and reports the time and the longest event-loop stall during the save, for PostgreSQL
 * (BENCH_PG_URL, default 127.0.0.1:5432/test, in a throwaway schema) and PGlite (in its worker).
 */

const COUNT = Number(process.env['BENCH_CHARACTERS'] ?? 10_000);
const PG_URL = process.env['BENCH_PG_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
const quiet = { info: () => {}, warn: () => {}, error: (o: object, m?: string) => console.error(m, o) };

function character(accountId: string, i: number): CharacterState {
  return {
    id: randomUUID(),
    accountId,
    name: `Bench${i}`,
    position: { x: i % 100, y: 10, z: Math.floor(i / 100) },
    health: 100,
    coins: i,
    skills: newSkills(),
    inventory: Array.from({ length: INVENTORY_SLOTS }, (_, s) => ({
      itemId: `item_${(i + s) % 500}`,
      quantity: 1 + s,
    })),
    equipment: {
      weapon: { itemId: 'bronze_sword', quantity: 1 },
      body: { itemId: 'leather_body', quantity: 1 },
    },
    bank: [],
  };
}

/** Longest gap seen by a 1 ms interval: what a tick scheduled meanwhile would have waited. */
function stallWatcher() {
  const h = monitorEventLoopDelay({ resolution: 1 });
  let last = performance.now();
  let worst = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    worst = Math.max(worst, now - last - 1);
    last = now;
  }, 1);
  h.enable();
  return () => {
    clearInterval(timer);
    h.disable();
    return { intervalMs: worst, histogramMaxMs: h.max / 1e6 };
  };
}

async function bench(name: string, db: SqlClient): Promise<void> {
  await migrate(db);
  const port = new SqlPersistence(db);
  const account = (await port.createAnonymousUser('bench')).id;
  const chars = Array.from({ length: COUNT }, (_, i) => character(account, i));
  const t0 = performance.now();
  for (let i = 0; i < chars.length; i += 1000) {
    await db.query(
      `INSERT INTO characters (id, "accountId", name) SELECT r.id, r."accountId", r.name
       FROM jsonb_to_recordset($1::text::jsonb) AS r(id text, "accountId" text, name text)`,
      [
        JSON.stringify(
          chars.slice(i, i + 1000).map((c) => ({ id: c.id, accountId: c.accountId, name: c.name })),
        ),
      ],
    );
  }
  await port.saveCharacters(chars); // first save: rows exist, later saves replace them
  console.log(`${name}: seeded ${COUNT} characters in ${(performance.now() - t0).toFixed(0)} ms`);

  for (let round = 1; round <= 2; round++) {
    const saves = new SaveScheduler(port, { saveIntervalMs: 60_000, logger: quiet });
    const h0 = performance.now();
    for (const c of chars) {
      c.position.x += 1;
      c.skills.attack.xp += 10;
      const slot = c.inventory[round % INVENTORY_SLOTS];
      if (slot) slot.quantity += 1;
      saves.dirty(c);
    }
    const handOver = performance.now() - h0;
    const stop = stallWatcher();
    const s0 = performance.now();
    await saves.flushAll();
    const saveMs = performance.now() - s0;
    const stall = stop();
    console.log(
      `${name} round ${round}: save ${COUNT} dirty characters ${saveMs.toFixed(0)} ms; longest event-loop stall ` +
        `${stall.intervalMs.toFixed(1)} ms (1 ms interval watcher), ${stall.histogramMaxMs.toFixed(1)} ms ` +
        `(monitorEventLoopDelay max); snapshot hand-over (dirty() x ${COUNT}) ${handOver.toFixed(0)} ms`,
    );
  }
  const check = await port.loadCharacter(chars[COUNT - 1]?.id ?? '');
  if (check?.position.x !== chars[COUNT - 1]?.position.x) throw new Error('bench save did not persist');
}

async function main() {
  const schema = `bench_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
  let pg: SqlClient | undefined;
  try {
    pg = await openPostgres({ url: PG_URL, schema, max: 4 });
    await bench('postgres', pg);
  } catch (err) {
    console.error(`postgres: skipped (${err instanceof Error ? err.message : String(err)})`);
  } finally {
    await pg?.close();
    const admin = postgres(PG_URL, { max: 1, onnotice: () => {} });
    await admin.unsafe(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch(() => {});
    await admin.end();
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-pglite-'));
  const lite = await openPglite(dir);
  try {
    await bench('pglite (worker thread)', lite);
  } finally {
    await lite.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
