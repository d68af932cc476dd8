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

/**
 * The database could not be reached or would not take the work (an outage, not a bad query): callers
 * answer "try again later" (HTTP 503) instead of an internal error. `code` and `cause` are the driver's.
 */
export class DatabaseUnavailableError extends Error {
  readonly code: string | undefined;
  constructor(cause: unknown) {
    super(`database unavailable: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'DatabaseUnavailableError';
    this.code = sqlState(cause);
  }
}

// postgres.js's own connection errors, and the socket errors of a database that went away.
const UNREACHABLE = new Set([
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  'CONNECT_TIMEOUT',
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * Whether an error means the database is unavailable: a connection error (SQLSTATE class 08, or one of
 * the codes above), the server shutting down or starting (57P01-57P03), or out of connections (53300).
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  if (err instanceof DatabaseUnavailableError) return true;
  const code = sqlState(err);
  if (code === undefined) return false;
  return UNREACHABLE.has(code) || code.startsWith('08') || /^57P0[123]$/.test(code) || code === '53300';
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

/** What the database has been doing, for a health probe (performance.now() ms). */
export interface DbActivity {
  /** When a call last completed (0 before any). */
  lastCompletedMs: number;
  /** Since when calls have been in flight without a pause (null when none is). */
  busySinceMs: number | null;
}

/**
 * The client with a note of its activity: a health probe stuck behind a queue of work, or behind one
 * long batch write, can tell a busy database from a dead one.
 */
export function trackActivity(client: SqlClient): SqlClient & { activity(): DbActivity } {
  let last = 0;
  let inflight = 0;
  let busySince: number | null = null;
  const track = <T>(start: () => Promise<T>): Promise<T> => {
    if (inflight++ === 0) busySince = performance.now();
    const settle = () => {
      if (--inflight === 0) busySince = null;
    };
    return start().then(
      (v) => {
        last = performance.now();
        settle();
        return v;
      },
      (err: unknown) => {
        settle();
        // One place for both drivers: every caller (routes, sessions, saves) can tell an outage apart.
        throw isDatabaseUnavailable(err) && !(err instanceof DatabaseUnavailableError)
          ? new DatabaseUnavailableError(err)
          : err;
      },
    );
  };
  return {
    query: (text, params) => track(() => client.query(text, params)),
    exec: (text) => track(() => client.exec(text)),
    transaction: (fn) => track(() => client.transaction(fn)),
    close: () => client.close(),
    activity: () => ({ lastCompletedMs: last, busySinceMs: busySince }),
  };
}
