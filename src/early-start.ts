import type { Worker } from 'node:worker_threads';
import type { Config } from '../lib/config.ts';
import type { Logger } from '../lib/logger.ts';
import { startNetWorker } from '../net/thread/start-worker.ts';
import { type OpenedPersistence, openPersistence } from '../persistence/open.ts';

/**
 * What start-up begins before the main thread loads the rest of the server: the database opens (PGlite
 * in its own worker, or a PostgreSQL connection) and the network thread loads its modules, each in its
 * own thread, while the main thread loads the code, the content and builds the world. Start-up then
 * waits for the slowest of them instead of their sum.
 */
export interface EarlyStart {
  persistence: Promise<OpenedPersistence>;
  netWorker: Worker;
  /** Start-up failed or was interrupted before the server took these over: close them. */
  abandon(): Promise<void>;
}

export function startEarly(config: Config, logger: Logger): EarlyStart {
  const persistence = openPersistence(config, logger);
  // Awaited by the server; a failure meanwhile must not be an unhandled rejection.
  persistence.catch(() => {});
  const netWorker = startNetWorker();
  return {
    persistence,
    netWorker,
    abandon: async () => {
      await netWorker.terminate();
      await persistence.then(
        (p) => p.close(),
        () => {},
      );
    },
  };
}
