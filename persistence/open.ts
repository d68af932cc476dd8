import type { Config } from '../lib/config.ts';
import { openPglite } from './drivers/pglite.ts';
import type { LocalPostgres } from './local-postgres.ts';
import { migrate } from './migrate.ts';
import type { PersistencePort } from './port.ts';
import { type SaveLogger, SaveScheduler } from './save-scheduler.ts';
import type { SqlClient } from './sql.ts';
import { SqlPersistence } from './sql-port.ts';

/** Start-up of persistence: pick the driver, migrate, recover death locks, start saving. */

export interface OpenedPersistence {
  port: PersistencePort;
  saves: SaveScheduler;
  /** Flushes every pending save, then closes the database (and a local PostgreSQL it started). */
  close(): Promise<void>;
}

/** Over an open SqlClient: migrations, death-lock recovery, a started SaveScheduler. */
export async function startPersistence(
  db: SqlClient,
  logger: SaveLogger,
  saveIntervalMs: number,
  /** Several worlds: writes only of characters this world holds (docs/scaling.md). */
  fenceWorld?: number,
): Promise<OpenedPersistence> {
  const applied = await migrate(db);
  if (applied.length > 0) logger.info({ applied }, 'database migrations applied');
  const port = new SqlPersistence(db, {
    ...(fenceWorld === undefined ? {} : { fenceWorld }),
    // One line per row each time it is read: it stays in the database until the game writes over it.
    onQuarantine: (q) => logger.warn(q, 'stored value set aside: over the JSON limits or not its shape'),
  });
  const recovered = await port.recoverDeathLocks();
  if (recovered > 0) logger.warn({ recovered }, 'unresolved death locks returned to their owners’ banks');
  const saves = new SaveScheduler(port, { saveIntervalMs, logger });
  saves.start();
  return {
    port,
    saves,
    close: async () => {
      await saves.stop();
      await port.close();
    },
  };
}

export async function openPersistence(config: Config, logger: SaveLogger): Promise<OpenedPersistence> {
  let local: LocalPostgres | undefined;
  let db: SqlClient;
  // The URL may hold a password: log only which driver runs.
  // Each driver is loaded only when chosen: the embedded database's start-up does not load postgres.js.
  if (config.database.url) {
    const { openPostgres } = await import('./drivers/postgres.ts');
    db = await openPostgres({ url: config.database.url });
    logger.info({ driver: 'postgres' }, 'database connected');
  } else if (config.database.useLocalPostgres) {
    const { startLocalPostgres } = await import('./local-postgres.ts');
    const { openPostgres } = await import('./drivers/postgres.ts');
    local = await startLocalPostgres(config.worldDir, logger);
    db = await openPostgres({ url: local.url });
    logger.info({ driver: 'postgres', local: true }, 'database connected');
  } else {
    db = await openPglite(config.database.pgliteDataDir);
    logger.info({ driver: 'pglite', dataDir: config.database.pgliteDataDir }, 'database opened');
  }
  try {
    const opened = await startPersistence(
      db,
      logger,
      config.saveIntervalSeconds * 1000,
      config.worlds.natsUrl === undefined ? undefined : config.worlds.worldId,
    );
    return {
      ...opened,
      close: async () => {
        try {
          await opened.close();
        } finally {
          await local?.stop();
        }
      },
    };
  } catch (err) {
    await db.close().catch(() => {});
    await local?.stop();
    throw err;
  }
}
