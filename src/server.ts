import path from 'node:path';
import type { Worker } from 'node:worker_threads';
import { type Config, withListenPort } from '../lib/config.ts';
import type { Logger } from '../lib/logger.ts';
import { buildCorsRules } from '../net/http/cors.ts';
import { createHttpPipeline, maxBodyBytes } from '../net/http/pipeline.ts';
import { HttpRateLimits } from '../net/http/rate-limit.ts';
import { StaticFiles } from '../net/http/static-files.ts';
import type { AuthContext, RouteDef } from '../net/http/types.ts';
import type { ChunkSource } from '../net/replication/msgpack-entity.ts';
import { envJsRoutes } from '../net/routes/env-js.ts';
import { healthRoutes } from '../net/routes/health.ts';
import { metricsRoutes } from '../net/routes/metrics.ts';
import { type StatusSource, statusRoutes } from '../net/routes/status.ts';
import { startNetThread, type WsTransport } from '../net/thread/net-thread.ts';
import type { WsApp } from '../net/ws/types.ts';
import { type MetricsServer, startMetricsServer } from './metrics-server.ts';
import { serviceVersion } from './version.ts';

export type { StatusSource } from '../net/routes/status.ts';

import { createServerMetrics, type ServerMetrics } from '../lib/metrics.ts';
import { REPO_ROOT } from '../lib/repo-root.ts';

export { REPO_ROOT };

/** Per-socket send buffer bound; over it the client is closed with 1008. */
export const DEFAULT_MAX_BUFFERED_BYTES = 1024 * 1024;

export interface ServerOptions {
  config: Config;
  logger: Logger;
  /** Route groups beyond the built-in /health, /status, /env.js and /metrics. */
  routes: RouteDef[];
  ws: WsApp;
  status: StatusSource;
  /** Checks a Bearer token for routes with `auth: 'bearer'`; without it those routes always answer 401. */
  verifyBearer?: (token: string) => Promise<AuthContext | null>;
  /** Client build to serve; default `<repo>/public` (404s until a build is there; picked up without a restart). */
  publicDir?: string;
  /** Shared with the admin command (countAuthFailure/isAuthBlocked); created when omitted. */
  rateLimits?: HttpRateLimits;
  /** Per-socket WebSocket send buffer bound in bytes (default 1 MiB). */
  wsMaxBufferedBytes?: number;
  /** The server's metrics (the composition root's); a fresh registry when omitted. */
  metrics?: ServerMetrics;
  /** The network thread's worker, started ahead while the server loads (src/early-start.ts). */
  netWorker?: Worker;
}

export interface RunningServer {
  port: number;
  /** Port of the separate /metrics listener (METRICS_PORT), or null when it is off. */
  metricsPort: number | null;
  rateLimits: HttpRateLimits;
  ws: WsTransport;
  /** Shared memory the network thread reads frames from (for the replication arena). */
  chunks: ChunkSource;
  /** Every route the HTTP router serves, built-in ones included (tests cover each without a list of their own). */
  routes: readonly RouteDef[];
  /** Close the listen socket, close every WebSocket with 1001 and every HTTP connection; idempotent. */
  stop(): Promise<void>;
}

/**
 * HTTP and WebSocket on one port, served by the network thread (net/thread): the sockets, their reads
 * and writes live there; requests and messages are answered here, next to the game. Port 0 picks a free
 * port (see `port`).
 */
export async function startServer(opts: ServerOptions): Promise<RunningServer> {
  const { config, logger } = opts;
  const startedAt = Date.now();
  const rateLimits = opts.rateLimits ?? new HttpRateLimits(config.rateLimit.disabled);
  const serverMetrics = opts.metrics ?? createServerMetrics();

  // The configuration once the port is known (PORT=0 picks one): what /env.js tells clients.
  let listening = config;
  const publicDir = opts.publicDir ?? path.join(REPO_ROOT, 'public');
  const staticFiles = StaticFiles.open(publicDir);
  const routes = [
    ...healthRoutes(serviceVersion(config.commitHash)),
    ...statusRoutes(opts.status, startedAt),
    ...envJsRoutes(() => listening.publicEnv),
    ...metricsRoutes(config.metrics.token, rateLimits, serverMetrics),
    ...opts.routes,
  ];
  const corsRules = buildCorsRules(config);
  const http = createHttpPipeline({
    routes,
    logger,
    corsRules,
    rateLimits,
    verifyBearer: opts.verifyBearer,
    staticFiles,
    metrics: serverMetrics,
  });

  const metrics: MetricsServer | undefined = await startMetricsServer(config, logger, serverMetrics);
  // Browsers may open /ws only from these origins: ALLOWED_WS_ORIGINS, or the CORS allowlist.
  const { wsOrigins } = config.limits;
  const wsOriginRules =
    wsOrigins === '*'
      ? null
      : wsOrigins === undefined
        ? corsRules
        : wsOrigins.map((o) => ({ name: 'ALLOWED_WS_ORIGINS', exact: o }));
  const net = await startNetThread({
    data: {
      host: config.host,
      port: config.port,
      trustProxy: config.rateLimit.trustProxy,
      rateLimitDisabled: config.rateLimit.disabled,
      maxBufferedBytes: opts.wsMaxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES,
      idleTimeoutSeconds: 120,
      maxBodyBytes: maxBodyBytes(routes),
      bodyTimeoutMs: config.limits.httpBodyTimeoutMs,
      wsConnectionsPerAddress: config.limits.wsConnectionsPerAddress,
      wsOriginRules,
    },
    ...(opts.netWorker ? { worker: opts.netWorker } : {}),
    ws: opts.ws,
    http,
    logger,
    metrics: serverMetrics,
  }).catch(async (err: unknown) => {
    await metrics?.close();
    throw err;
  });
  const { port, ws } = net;
  listening = withListenPort(config, port);
  logger.info(
    {
      host: config.host,
      port,
      publicDir: staticFiles.present() ? publicDir : null,
      rateLimited: !config.rateLimit.disabled,
    },
    'listening',
  );

  let stopped: Promise<void> | undefined;
  return {
    port,
    metricsPort: metrics?.port ?? null,
    rateLimits,
    ws,
    chunks: net.chunks,
    routes,
    stop() {
      stopped ??= (async () => {
        ws.stopAccepting();
        ws.closeAll(1001, 'server shutting down');
        await net.stop();
        await metrics?.close();
        rateLimits.close();
        logger.info({ port }, 'server stopped');
      })();
      return stopped;
    },
  };
}
