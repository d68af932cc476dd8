import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createLogger } from '../../lib/logger.ts';
import { REPO_ROOT } from '../../lib/repo-root.ts';
import { startWorldServer, type WorldServer } from '../../src/world-server.ts';
import { testConfig } from './server.ts';

export interface DefaultWorld {
  srv: WorldServer;
  /** http://127.0.0.1:<port> */
  base: string;
  wsUrl: string;
  /** Stop the server and remove its world directory (embedded database included). */
  stop(): Promise<void>;
}

/**
 * The real world server on the project's default content, with an embedded database in a fresh temporary
 * world directory, on a free port of 127.0.0.1, for integration tests over real sockets. `env` overrides
 * the test settings (ADMIN_CODE `test-admin-code`, rate limits off).
 */
export async function startDefaultWorld(
  name: string,
  env: Record<string, string> = {},
): Promise<DefaultWorld> {
  const worldDir = mkdtempSync(path.join(os.tmpdir(), `${name}-`));
  const config = testConfig({
    WORLD: worldDir,
    TICK_MS: '50',
    JWT_SECRET: 'integration-test-secret-0123456789-abcdefghij',
    ADMIN_CODE: 'test-admin-code',
    DISABLE_RATE_LIMIT: 'true',
    ...env,
  });
  const srv = await startWorldServer(config, createLogger(config), {
    manifestsDir: path.join(REPO_ROOT, 'world', 'assets', 'manifests'),
    publicDir: '/nonexistent/public',
  });
  return {
    srv,
    base: `http://127.0.0.1:${srv.port}`,
    wsUrl: `ws://127.0.0.1:${srv.port}/ws`,
    async stop() {
      await srv.stop();
      rmSync(worldDir, { recursive: true, force: true });
    },
  };
}
