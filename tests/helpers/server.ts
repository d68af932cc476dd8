import { type Config, loadConfig } from '../../lib/config.ts';
import { createLogger, type Logger } from '../../lib/logger.ts';
import { type RunningServer, type ServerOptions, type StatusSource, startServer } from '../../src/server.ts';
import { createUnauthenticatedApp } from './unauthenticated-app.ts';

/**
 * Starts the real server in-process on 127.0.0.1 and a free port, with a hermetic test configuration
 * (the process environment is NOT read: pass what a test needs in `env`). Always `await stop()` in
 * afterAll/afterEach.
 */

export interface TestServer {
  url: string;
  wsUrl: string;
  port: number;
  config: Config;
  server: RunningServer;
  stop(): Promise<void>;
}

export type TestServerParts = Partial<Omit<ServerOptions, 'config'>>;

/** A StatusSource whose values a test can change. */
export function fakeStatus(
  init: Partial<{ tick: number; lastMs: number; p99Ms: number; players: number; dbOk: boolean }> = {},
) {
  const state = { tick: 0, lastMs: 0, p99Ms: 0, players: 0, dbOk: true, ...init };
  const source: StatusSource = {
    tick: () => ({ number: state.tick, lastMs: state.lastMs, p99Ms: state.p99Ms }),
    playersOnline: () => state.players,
    databaseOk: () => state.dbOk,
  };
  return { state, source };
}

export function testConfig(env: Record<string, string | undefined> = {}): Config {
  return loadConfig({
    NODE_ENV: 'test',
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: process.env['TEST_LOG_LEVEL'] ?? 'silent',
    // The separate /metrics listener on a free port: parallel test servers never share one.
    METRICS_PORT: '0',
    ...env,
  });
}

export async function startTestServer(
  env: Record<string, string | undefined> = {},
  parts: TestServerParts = {},
): Promise<TestServer> {
  const config = testConfig(env);
  const logger: Logger = parts.logger ?? createLogger(config);
  const server = await startServer({
    config,
    logger,
    routes: parts.routes ?? [],
    ws: parts.ws ?? createUnauthenticatedApp({ authTimeoutMs: config.auth.wsAuthTimeoutMs }),
    status: parts.status ?? fakeStatus().source,
    // No client build unless a test provides one, so a local `public/` cannot change test results.
    publicDir: parts.publicDir ?? '/nonexistent/public',
    ...(parts.verifyBearer ? { verifyBearer: parts.verifyBearer } : {}),
    ...(parts.rateLimits ? { rateLimits: parts.rateLimits } : {}),
    ...(parts.wsMaxBufferedBytes !== undefined ? { wsMaxBufferedBytes: parts.wsMaxBufferedBytes } : {}),
    ...(parts.metrics ? { metrics: parts.metrics } : {}),
  });
  return {
    url: `http://127.0.0.1:${server.port}`,
    wsUrl: `ws://127.0.0.1:${server.port}/ws`,
    port: server.port,
    config,
    server,
    stop: () => server.stop(),
  };
}
