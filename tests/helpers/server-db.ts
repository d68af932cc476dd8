import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { openPglite } from '../../persistence/drivers/pglite.ts';
import { openPostgres } from '../../persistence/drivers/postgres.ts';
import type { SqlClient } from '../../persistence/sql.ts';
import { TEST_PG_URL } from './db.ts';

/**
 * A database for the real server in a child process (tests/helpers/server-process.ts), kept across its
 * restarts: `env` points the server at it; `open` reads it from the test (PGlite only while no server
 * has it open: it is one process's files).
 */
export interface ServerDb {
  driver: 'pglite' | 'postgres';
  env: Record<string, string>;
  open(): Promise<SqlClient>;
  destroy(): Promise<void>;
}

export function pgliteServerDb(prefix: string): ServerDb {
  const dir = mkdtempSync(path.join(os.tmpdir(), `${prefix}-`));
  return {
    driver: 'pglite',
    env: { PGLITE_DATA_DIR: dir },
    open: () => openPglite(dir),
    destroy: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

export async function postgresServerDb(prefix: string): Promise<ServerDb> {
  const schema = `${prefix}_${randomBytes(6).toString('hex')}`;
  const admin = postgres(TEST_PG_URL, { max: 1, onnotice: () => {} });
  await admin.unsafe(`CREATE SCHEMA ${schema}`);
  await admin.end();
  // postgres.js sends unknown URL parameters as connection parameters: the server's pool lives in
  // the fresh schema without any server-side setting.
  const url = new URL(TEST_PG_URL);
  url.searchParams.set('search_path', schema);
  return {
    driver: 'postgres',
    env: { DATABASE_URL: url.toString() },
    open: () => openPostgres({ url: TEST_PG_URL, schema, max: 1 }),
    destroy: async () => {
      const sql = postgres(TEST_PG_URL, { max: 1, onnotice: () => {} });
      await sql.unsafe(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await sql.end();
    },
  };
}
