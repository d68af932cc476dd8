import type { Worker } from 'node:worker_threads';
import { startTsWorker } from '../../lib/ts-worker.ts';
import type { NetWorkerData } from './messages.ts';

/**
 * Starts the network thread's worker. With its options it listens as soon as its modules are loaded;
 * without them (start-up starts it ahead, while the main thread still loads the server) it loads its
 * modules and waits for its options as the first message it receives (`handNetWorkerData`).
 */
export function startNetWorker(data?: NetWorkerData): Worker {
  return startTsWorker(new URL('./net-worker.ts', import.meta.url), data);
}

/** The options of a worker started without them: always the first message it is sent. */
export function handNetWorkerData(worker: Worker, data: NetWorkerData): void {
  worker.postMessage(data);
}
