import postgres from 'postgres';
import type { SqlClient, SqlTx } from '../sql.ts';

export interface PostgresOptions {
  url: string;
  /** A schema to create and put first on the search path (tests isolate themselves this way). */
  schema?: string;
  max?: number;
}

/** postgres.js behind the SqlClient adapter: a pool; int8 parsed to numbers like PGlite does. */
export async function openPostgres(opts: PostgresOptions): Promise<SqlClient> {
  const sql = postgres(opts.url, {
    max: opts.max ?? 10,
    onnotice: () => {},
    // Fetching array types runs an unawaited query on every new connection: if the database drops
    // during it, postgres.js leaves a rejection nobody handles, which ends the process. Arrays are
    // sent as literals instead (below).
    fetch_types: false,
    types: {
      bigint: {
        to: 20,
        from: [20],
        serialize: (x: number) => String(x),
        parse: (x: string) => Number(x),
      },
    },
    ...(opts.schema ? { connection: { search_path: opts.schema } } : {}),
  });
  if (opts.schema) {
    if (!/^[a-z_][a-z0-9_]*$/.test(opts.schema)) throw new Error(`invalid schema name "${opts.schema}"`);
    await sql.unsafe(`CREATE SCHEMA IF NOT EXISTS ${opts.schema}`);
  }
  const run = <T>(q: postgres.Sql | postgres.TransactionSql, text: string, params?: unknown[]) =>
    q.unsafe(
      text,
      (params ?? []).map(arrayAsLiteral) as postgres.ParameterOrJSON<never>[],
    ) as unknown as Promise<T[]>;
  const exec = async (q: postgres.Sql | postgres.TransactionSql, text: string) => {
    await q.unsafe(text).simple();
  };
  return {
    query: (text, params) => run(sql, text, params),
    exec: (text) => exec(sql, text),
    transaction: async <T>(fn: (tx: SqlTx) => Promise<T>) =>
      (await sql.begin((t) =>
        fn({ query: (text, params) => run(t, text, params), exec: (text) => exec(t, text) }),
      )) as T,
    close: () => sql.end({ timeout: 5 }),
  };
}

/**
 * A flat array parameter as PostgreSQL's array literal text (`{"a","b"}`), which the server casts to the
 * array type the statement expects; anything else is passed through. Nested arrays are not used.
 */
function arrayAsLiteral(value: unknown): unknown {
  if (!Array.isArray(value)) return value;
  const items = value.map((x) => {
    if (x === null || x === undefined) return 'NULL';
    if (Array.isArray(x)) throw new TypeError('nested array parameters are not supported');
    return `"${String(x).replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
  });
  return `{${items.join(',')}}`;
}
