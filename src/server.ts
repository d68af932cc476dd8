import uWS from 'uWebSockets.js';
import path from 'node:path';
import { buildCorsRules } from '../net/http/cors.ts';
import { mountHttp } from '../net/http/pipeline.ts';
import { HttpRateLimits } from '../net/http/rate-limit.ts';
import { StaticFiles } from '../net/http/static-files.ts';
import type { AuthContext, RouteDef } from '../net/http/types.ts';
import { envJsRoutes } from '../net/routes/env-js.ts';
import { healthRoutes } from '../net/routes/health.ts';
import { metricsRoutes } from '../net/routes/metrics.ts';
import { type StatusSource, statusRoutes } from '../net/routes/status.ts';
import { mountWs, type WsTransport } from '../net/ws/transport.ts';
import type { WsApp } from '../net/ws/types.ts';
import type { Config } from './config.ts';
import type { Logger } from './logger.ts';
import { serviceVersion } from './version.ts';

export type { StatusSource } from '../net/routes/status.ts';

import { REPO_ROOT } from './repo-root.ts';

export { REPO_ROOT };

export interface ServerOptions {
  config: Config;
  logger: Logger;
  /** Route groups beyond the built-in /health, /status, /env.js and /metrics. */
  routes: RouteDef[];
  ws: WsApp;
  status: StatusSource;
  /** Checks a Bearer token for routes with `auth: 'bearer'`; without it those routes always answer 401. */
  verifyBearer?: (token: string) => Promise<AuthContext | null>;
  /** Client build to serve; default `<repo>/public`, skipped when it does not exist. */
  publicDir?: string;
  /** Shared with the admin command (countAuthFailure/isAuthBlocked); created when omitted. */
  rateLimits?: HttpRateLimits;
  /** Per-socket WebSocket send buffer bound in bytes (default 1 MiB). */
  wsMaxBufferedBytes?: number;
}

export interface RunningServer {
  port: number;
  rateLimits: HttpRateLimits;
  ws: WsTransport;
  /** Close the listen socket, close every WebSocket with 1001 and every HTTP connection; idempotent. */
  stop(): Promise<void>;
}

/** HTTP and WebSocket on one uWS app and one port. Port 0 picks a free port (see `port`). */
export async function startServer(opts: ServerOptions): Promise<RunningServer> {
  const { config, logger } = opts;
  const startedAt = Date.now();
  const app = uWS.App();
  const rateLimits = opts.rateLimits ?? new HttpRateLimits(config.rateLimit.disabled);

  // /ws first: uWS matches it before the catch-all HTTP route.
  const ws = mountWs(app, {
    app: opts.ws,
    logger,
    trustProxy: config.rateLimit.trustProxy,
    rateLimitDisabled: config.rateLimit.disabled,
    ...(opts.wsMaxBufferedBytes !== undefined ? { maxBufferedBytes: opts.wsMaxBufferedBytes } : {}),
  });

  const publicDir = opts.publicDir ?? path.join(REPO_ROOT, 'public');
  const staticFiles = StaticFiles.open(publicDir);
  mountHttp(app, {
    routes: [
      ...healthRoutes(serviceVersion(config.commitHash)),
      ...statusRoutes(opts.status, startedAt),
      ...envJsRoutes(config.publicEnv),
      ...metricsRoutes(),
      ...opts.routes,
    ],
    logger,
    corsRules: buildCorsRules(config),
    rateLimits,
    trustProxy: config.rateLimit.trustProxy,
    verifyBearer: opts.verifyBearer,
    staticFiles,
  });

  const listenSocket = await new Promise<uWS.us_listen_socket>((resolve, reject) => {
    app.listen(config.host, config.port, (token) => {
      if (token) resolve(token);
      else reject(new Error(`cannot listen on ${config.host}:${config.port} (port in use?)`));
    });
  });
  const port = uWS.us_socket_local_port(listenSocket as unknown as uWS.us_socket);
  logger.info(
    {
      host: config.host,
      port,
      publicDir: staticFiles ? publicDir : null,
      rateLimited: !config.rateLimit.disabled,
    },
    'listening',
  );

  let stopped: Promise<void> | undefined;
  return {
    port,
    rateLimits,
    ws,
    stop() {
      stopped ??= (async () => {
        ws.stopAccepting();
        uWS.us_listen_socket_close(listenSocket);
        ws.closeAll(1001, 'server shutting down');
        // Present in this uWS build but not in its typings: closes the remaining HTTP keep-alive sockets.
        (app as unknown as { close?: () => void }).close?.();
        rateLimits.close();
        // Let uWS flush the close frames before the caller tears the process down.
        await new Promise((r) => setImmediate(r));
        logger.info({ port }, 'server stopped');
      })();
      return stopped;
    },
  };
}
