import path from 'node:path';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/logger.ts';
import { REPO_ROOT } from '../../src/server.ts';
import { startWorldServer } from '../../src/world-server.ts';

/**
 * The server with the world running (src/world-server.ts), for bench:load while src/main.ts does not
 * wire the world yet. Same environment as main.ts; the project's default content; SIGTERM/SIGINT stop it
 * cleanly (players saved).
 */
const config = loadConfig(process.env);
const logger = createLogger(config);
const srv = await startWorldServer(config, logger, {
  manifestsDir: path.join(REPO_ROOT, 'world', 'assets', 'manifests'),
});
logger.info({ port: srv.port }, 'ready');
let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await srv.stop();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
