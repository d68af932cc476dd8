import uWS from 'uWebSockets.js';
import { type Config, ConfigError, loadConfig } from '../lib/config.ts';
import { createLogger } from '../lib/logger.ts';
import { allocatorInUse } from './allocator-in-use.ts';
import { startEarly } from './early-start.ts';
import { logUnhandledRejections } from './process-faults.ts';
import { installShutdown } from './shutdown.ts';
import type { WorldServer } from './world-server.ts';

/**
 * Composition root. Start-up follows the specification's order, one explicit step each (the database
 * and the network thread are started ahead, in their own threads, see src/early-start.ts):
 *   1. configuration (refuses to start on any problem, before anything is touched)
 *   2. content manifests
 *   3. database
 *   4. HTTP + WebSocket
 *   5. world (tick loop, save scheduler)
 * Shutdown runs in the reverse sense: stop accepting, flush, close.
 */

function loadConfigOrExit(): Config {
  try {
    return loadConfig(process.env);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
}

async function main(): Promise<void> {
  // 1. Configuration: refuses to start on any problem, before anything is touched.
  const config = loadConfigOrExit();
  const logger = createLogger(config);
  logUnhandledRejections(logger);
  if (!uWS.App.toString().includes('[native code]')) {
    logger.error('uWebSockets.js fell back to its pure-JS implementation: performance will be poor');
  }
  logger.info({ port: config.port, env: config.env, allocator: allocatorInUse() }, 'starting');

  // The database opens and the network thread loads in their own threads while this one loads the
  // server's code below (most of a start-up is loading code): start-up takes the slowest, not the sum.
  const early = startEarly(config, logger);

  // Filled in once start-up completes; a signal during start-up closes what was started ahead.
  let app: WorldServer | undefined;
  installShutdown({
    logger,
    steps: () => app?.shutdownSteps() ?? [{ name: 'start-up', run: () => early.abandon() }],
    emergency: () => app?.emergencySave(),
  });

  // 2-5. Content manifests -> database -> HTTP + WebSocket -> world (src/world-server.ts).
  const { startWorldServer } = await import('./world-server.ts');
  app = await startWorldServer(config, logger, { early });
  logger.info({ startupMs: Math.round(performance.now()), port: app.port }, 'ready');
}

main().catch((err: unknown) => {
  // Start-up failed after configuration: log it (never a secret: config is not logged) and exit 1.
  process.stderr.write(`start-up failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
