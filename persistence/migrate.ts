import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../lib/repo-root.ts';
import type { SqlClient } from './sql.ts';

/**
 * Applies persistence/migrations/NNN_name.sql in order, each in its own transaction, recorded in
 * schema_migrations. A transaction-scoped advisory lock serialises servers that start at once: the
 * second waits, then sees the version recorded and skips it.
 */

// From the project root, so a compiled build (dist/) reads the same .sql files as the sources.
const MIGRATIONS_DIR = path.join(REPO_ROOT, 'persistence', 'migrations');
/** Arbitrary constant naming "schema migrations" among advisory locks. */
const MIGRATION_LOCK = 4_242_001;

export interface Migration {
  version: string;
  sql: string;
}

export function loadMigrations(dir = MIGRATIONS_DIR): Migration[] {
  return readdirSync(dir)
    .filter((f) => /^\d{3}_[a-z0-9_]+\.sql$/.test(f))
    .sort()
    .map((f) => ({ version: f.replace(/\.sql$/, ''), sql: readFileSync(path.join(dir, f), 'utf8') }));
}

/** Returns the versions this call applied (empty when the schema was up to date). */
export async function migrate(db: SqlClient, migrations = loadMigrations()): Promise<string[]> {
  const applied: string[] = [];
  for (const m of migrations) {
    const didApply = await db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
      await tx.exec(
        'CREATE TABLE IF NOT EXISTS schema_migrations (version text PRIMARY KEY, "appliedAt" timestamptz NOT NULL DEFAULT now())',
      );
      const done = await tx.query('SELECT 1 FROM schema_migrations WHERE version = $1', [m.version]);
      if (done.length > 0) return false;
      await tx.exec(m.sql);
      await tx.query('INSERT INTO schema_migrations (version) VALUES ($1)', [m.version]);
      return true;
    });
    if (didApply) applied.push(m.version);
  }
  return applied;
}
