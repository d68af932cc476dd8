import { mkdirSync } from 'node:fs';
import { startTsWorker } from '../../lib/ts-worker.ts';
import { DatabaseUnavailableError, type SqlClient, type SqlTx } from '../sql.ts';
import type { PgliteRequest, PgliteResponse, PgliteWorkerData } from './pglite-messages.ts';
import { preparePgliteDataDir } from './pglite-template.ts';

/** A database error carried back from the worker, with its SQLSTATE. */
export class PgliteError extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
  ) {
    super(message);
    this.name = 'PgliteError';
  }
}

type Pending = { resolve: (r: PgliteResponse & { ok: true }) => void; reject: (e: Error) => void };
type Body = PgliteRequest extends infer R ? (R extends PgliteRequest ? Omit<R, 'id'> : never) : never;

/**
 * Embedded PostgreSQL (PGlite) behind the SqlClient adapter. The instance lives in a worker thread
 * (pglite-worker.ts); this side only posts messages, so queries never block the event loop.
 */
export async function openPglite(dataDir: string): Promise<SqlClient> {
  // A new database is a copy of a prepared one (initdb once, in a worker that ends): pglite-template.ts.
  await preparePgliteDataDir(dataDir);
  mkdirSync(dataDir, { recursive: true });
  const worker = startTsWorker(new URL('./pglite-worker.ts', import.meta.url), {
    dataDir,
  } satisfies PgliteWorkerData);
  const pending = new Map<number, Pending>();
  let nextId = 1;
  let dead: Error | undefined;
  const failAll = (cause: Error) => {
    // The embedded database is gone with its worker: every call from now on is an outage.
    const err = new DatabaseUnavailableError(cause);
    dead = err;
    for (const p of pending.values()) p.reject(err);
    pending.clear();
  };
  worker.on('message', (res: PgliteResponse) => {
    const p = pending.get(res.id);
    if (!p) return;
    pending.delete(res.id);
    if (res.ok) p.resolve(res);
    else p.reject(new PgliteError(res.message, res.code));
  });
  worker.on('error', (err) => failAll(err));
  worker.on('exit', (code) => failAll(new Error(`PGlite worker exited (${code})`)));

  const call = (body: Body): Promise<PgliteResponse & { ok: true }> => {
    if (dead) return Promise.reject(dead);
    const id = nextId++;
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject });
      worker.postMessage({ ...body, id });
    });
  };
  const txApi = (tx: number | null): SqlTx => ({
    query: async <T>(text: string, params?: unknown[]) =>
      ((await call({ op: 'query', text, params: params ?? [], tx })).rows ?? []) as T[],
    exec: async (text: string) => {
      await call({ op: 'exec', text, tx });
    },
  });

  // Fail here, not on the first query, when the database cannot open.
  await txApi(null).query('SELECT 1');
  return {
    ...txApi(null),
    async transaction<T>(fn: (tx: SqlTx) => Promise<T>): Promise<T> {
      const { tx } = await call({ op: 'begin' });
      if (tx === undefined) throw new Error('PGlite worker did not open a transaction');
      let result: T;
      try {
        result = await fn(txApi(tx));
      } catch (err) {
        await call({ op: 'rollback', tx }).catch(() => {});
        throw err;
      }
      await call({ op: 'commit', tx });
      return result;
    },
    async close() {
      if (!dead) await call({ op: 'close' }).catch(() => {});
      await worker.terminate();
    },
  };
}
