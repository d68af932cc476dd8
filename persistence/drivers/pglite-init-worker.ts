import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';

/**
 * Initialises a new PGlite data directory (initdb) and closes it, in a worker that ends right after:
 * initdb's WebAssembly instances (some 300 MB) go with the worker instead of staying for the life of
 * the server (pglite-template.ts).
 */

const port = parentPort;
if (!port) throw new Error('pglite-init-worker must run in a worker thread');
const { dataDir } = workerData as { dataDir: string };
const db = await PGlite.create(dataDir);
await db.close();
port.postMessage('done');
