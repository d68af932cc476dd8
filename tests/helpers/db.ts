import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { openPglite } from '../../persistence/drivers/pglite.ts';
import { openPostgres } from '../../persistence/drivers/postgres.ts';
import type { SqlClient } from '../../persistence/sql.ts';

/**
 * Databases for tests: PGlite in a temp dir (always), and the real PostgreSQL at TEST_DATABASE_URL
 * (default 127.0.0.1:5432/test) in a fresh random schema, dropped afterwards.
 */

export const TEST_PG_URL = process.env['TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';

/** Whether PostgreSQL answers. In CI a missing PostgreSQL is an error, so callers fail instead of skip. */
export async function postgresAvailable(): Promise<boolean> {
  const sql = postgres(TEST_PG_URL, { max: 1, connect_timeout: 3, onnotice: () => {} });
  try {
    await sql`SELECT 1`;
    return true;
  } catch {
    return false;
  } finally {
    await sql.end({ timeout: 1 }).catch(() => {});
  }
}

export interface TestDb {
  name: 'pglite' | 'postgres';
  /** Opens another client on the same database (a second server, a restart). */
  connect(): Promise<SqlClient>;
  /** For child processes: how to reach the same database. */
  location: { pgliteDataDir?: string; url?: string; schema?: string };
  destroy(): Promise<void>;
}

/**
 * PGlite in a new temporary directory: openPglite makes it a copy of the prepared template that the
 * server itself uses (node_modules/.cache, initdb once per machine and PGlite version), so no test pays
 * for initdb, nor for a template of its own.
 */
export function pgliteTestDb(): TestDb {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pglite-test-'));
  return {
    name: 'pglite',
    connect: () => openPglite(dir),
    location: { pgliteDataDir: dir },
    destroy: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

export function postgresTestDb(): TestDb {
  const schema = `t_${randomBytes(6).toString('hex')}`;
  return {
    name: 'postgres',
    connect: () => openPostgres({ url: TEST_PG_URL, schema, max: 4 }),
    location: { url: TEST_PG_URL, schema },
    destroy: async () => {
      const sql = postgres(TEST_PG_URL, { max: 1, onnotice: () => {} });
      await sql.unsafe(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await sql.end();
    },
  };
}
