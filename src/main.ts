import uWS from 'uWebSockets.js';
import type { RouteDef } from '../net/http/types.ts';
import { createUnauthenticatedApp } from '../net/ws/unauthenticated-app.ts';
import { type Config, ConfigError, loadConfig } from './config.ts';
import { createLogger } from './logger.ts';
import { type RunningServer, type StatusSource, startServer } from './server.ts';
import { installShutdown, type ShutdownStep } from './shutdown.ts';

/**
 * Composition root. Start-up follows the specification's order, one explicit step each:
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
  // 1. Configuration.
  const config = loadConfigOrExit();
  const logger = createLogger(config);
  if (!uWS.App.toString().includes('[native code]')) {
    logger.error('uWebSockets.js fell back to its pure-JS implementation: performance will be poor');
  }
  logger.info({ port: config.port }, 'starting');

  // Filled in as start-up proceeds; read by the shutdown handler.
  let server: RunningServer | undefined;
  installShutdown({
    logger,
    steps: (): ShutdownStep[] => [
      // Stop accepting and close every socket (1001) first, so no new command arrives.
      { name: 'http+ws', run: () => server?.stop() },
      // world: stop the tick loop, wired when world/ lands          → { name: 'world', run: () => world.stop() }
      // saves: flush dirty characters, wired when persistence/ lands → { name: 'saves', run: () => saver.flush() }
      // database: close the pool, wired when persistence/ lands     → { name: 'database', run: () => db.close() }
    ],
  });

  // 2. Content: wired when world/ lands → const content = await loadContent(config, logger);

  // 3. Database: wired when persistence/ lands → const db = await openDatabase(config, logger);

  // Until the world lands: nothing is ticking, nobody is online, no database to be down.
  const status: StatusSource = {
    tick: () => ({ number: 0, lastMs: 0, p99Ms: 0 }),
    playersOnline: () => 0,
    databaseOk: () => true,
  };
  // Route groups: one line each (e.g. ...dataRoutes(content), ...authRoutes(identity)).
  const routes: RouteDef[] = [];

  // 4. HTTP + WebSocket.
  server = await startServer({
    config,
    logger,
    routes,
    // identity: replaced by the session app when the identity work lands.
    ws: createUnauthenticatedApp({ authTimeoutMs: config.auth.wsAuthTimeoutMs }),
    status,
    // identity: verifyBearer: (token) => identity.verifyBearer(token), wired when the identity work lands
  });

  // 5. World: wired when world/ lands → const world = startWorld({ config, content, db, logger });

  logger.info({ port: server.port }, 'ready');
}

main().catch((err: unknown) => {
  // Start-up failed after configuration: log it (never a secret: config is not logged) and exit 1.
  process.stderr.write(`start-up failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
