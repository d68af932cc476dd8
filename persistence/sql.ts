/**
 * The thin SQL adapter both drivers implement: `$1` parameters, rows as plain objects, int8 parsed to
 * numbers by both, one function-scoped transaction (commit when fn resolves, rollback when it throws).
 */

export interface SqlTx {
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  /** Several statements without parameters (migrations), simple protocol. */
  exec(text: string): Promise<void>;
}

export interface SqlClient extends SqlTx {
  transaction<T>(fn: (tx: SqlTx) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** A database error's SQLSTATE, whichever driver threw it. */
export function sqlState(err: unknown): string | undefined {
  if (err && typeof err === 'object' && 'code' in err && typeof err.code === 'string') return err.code;
  return undefined;
}

/** serialization_failure, deadlock_detected: the transaction may simply be run again. */
export function isRetryable(err: unknown): boolean {
  const code = sqlState(err);
  return code === '40001' || code === '40P01';
}

/** integrity_constraint_violation class: check, unique, foreign key, not null. */
export function isConstraintViolation(err: unknown): boolean {
  return sqlState(err)?.startsWith('23') ?? false;
}

/** Runs a transaction again on serialization failure or deadlock, with a short jittered pause. */
export async function withRetry<T>(
  client: SqlClient,
  fn: (tx: SqlTx) => Promise<T>,
  attempts = 5,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await client.transaction(fn);
    } catch (err) {
      if (!isRetryable(err) || attempt >= attempts) throw err;
      await new Promise((r) => setTimeout(r, 5 * attempt + Math.random() * 10));
    }
  }
}

/**
 * The client with a note of when a call last completed (performance.now() ms, 0 before any): a
 * health probe stuck behind a queue of work can tell a busy database from a dead one.
 */
export function trackActivity(client: SqlClient): SqlClient & { lastActivityMs(): number } {
  let last = 0;
  const done = <T>(p: Promise<T>): Promise<T> =>
    p.then((v) => {
      last = performance.now();
      return v;
    });
  return {
    query: (text, params) => done(client.query(text, params)),
    exec: (text) => done(client.exec(text)),
    transaction: (fn) => done(client.transaction(fn)),
    close: () => client.close(),
    lastActivityMs: () => last,
  };
}
