import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import type { PgliteRequest, PgliteResponse, PgliteWorkerData } from './pglite-messages.ts';

/**
 * Owns the PGlite instance, off the main thread so a big save never stalls the tick. PGlite is one
 * connection: an open transaction holds a mutex until commit/rollback; other work waits for it.
 */

const port = parentPort;
if (!port) throw new Error('pglite-worker must run in a worker thread');
const { dataDir } = workerData as PgliteWorkerData;

/**
 * PostgreSQL's default 128 MB of shared buffers are all touched when it starts inside PGlite's
 * WebAssembly memory: resident for the life of the server whatever the database's size. 32 MB holds a
 * game's hot rows (characters, banks, friends of the players online); what does not fit is read again
 * through the operating system's file cache. Measured: ~95 MB less resident memory.
 */
const SHARED_BUFFERS = '32MB';

const dbReady = PGlite.create(dataDir, {
  parsers: { 20: (v: string) => Number(v) },
  startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${SHARED_BUFFERS}`],
});

let tail: Promise<void> = Promise.resolve();
/** Resolves with a release function once every earlier holder has released. */
function lock(): Promise<() => void> {
  let release!: () => void;
  const next = new Promise<void>((r) => {
    release = r;
  });
  const prev = tail;
  tail = prev.then(() => next);
  return prev.then(() => release);
}

let nextTx = 1;
const openTx = new Map<number, () => void>();

async function handle(msg: PgliteRequest): Promise<PgliteResponse> {
  const db = await dbReady;
  switch (msg.op) {
    case 'query':
    case 'exec': {
      const release = msg.tx === null ? await lock() : undefined;
      if (msg.tx !== null && !openTx.has(msg.tx)) throw new Error(`no open transaction ${msg.tx}`);
      try {
        if (msg.op === 'exec') {
          await db.exec(msg.text);
          return { id: msg.id, ok: true };
        }
        const res = await db.query(msg.text, msg.params);
        return { id: msg.id, ok: true, rows: res.rows };
      } finally {
        release?.();
      }
    }
    case 'begin': {
      const release = await lock();
      try {
        await db.query('BEGIN');
      } catch (err) {
        release();
        throw err;
      }
      const tx = nextTx++;
      openTx.set(tx, release);
      return { id: msg.id, ok: true, tx };
    }
    case 'commit':
    case 'rollback': {
      const release = openTx.get(msg.tx);
      if (!release) throw new Error(`no open transaction ${msg.tx}`);
      try {
        await db.query(msg.op === 'commit' ? 'COMMIT' : 'ROLLBACK');
      } finally {
        openTx.delete(msg.tx);
        release();
      }
      return { id: msg.id, ok: true };
    }
    case 'close': {
      await db.close();
      return { id: msg.id, ok: true };
    }
  }
}

port.on('message', (msg: PgliteRequest) => {
  handle(msg).then(
    (res) => port.postMessage(res),
    (err: unknown) => {
      const e = err as { message?: string; code?: string };
      const res: PgliteResponse = { id: msg.id, ok: false, message: String(e?.message ?? err) };
      if (typeof e?.code === 'string') res.code = e.code;
      port.postMessage(res);
    },
  );
});
