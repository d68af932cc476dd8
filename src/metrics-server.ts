import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Config } from '../lib/config.ts';
import type { Logger } from '../lib/logger.ts';
import type { ServerMetrics } from '../lib/metrics.ts';
import { PROBLEM_CONTENT_TYPE, problem } from '../net/http/problem.ts';
import type { ProblemCode } from '../net/http/types.ts';
import { metricsBody, metricsTokenCheck } from '../net/routes/metrics.ts';

/**
 * The separate /metrics listener (METRICS_HOST:METRICS_PORT, 127.0.0.1:9464 by default): what a
 * Prometheus on the same machine (or a private network) scrapes, off the public port.
 *
 * node:http on the main thread, not a second uWS app on the network thread: the registry lives here
 * (prom-client collects from this thread's objects), a scrape every 15 s costs nothing next to a tick,
 * and node:http brings its own header and request timeouts for a listener nobody tunes. With
 * METRICS_TOKEN set it asks for `Authorization: Bearer <token>` too.
 */

export interface MetricsServer {
  /** The port bound (the configured one, or the free one picked for port 0). */
  readonly port: number;
  close(): Promise<void>;
}

export async function startMetricsServer(
  config: Pick<Config, 'metrics'>,
  logger: Pick<Logger, 'info' | 'error'>,
  metrics: Pick<ServerMetrics, 'registry' | 'limitRefusals'>,
): Promise<MetricsServer | undefined> {
  const { limitRefusals } = metrics;
  const { port, host, token } = config.metrics;
  if (port === null) return undefined;
  const authorized = metricsTokenCheck(token);
  const server = http.createServer({ headersTimeout: 5_000, requestTimeout: 10_000 }, (req, res) => {
    const send = (
      status: number,
      code: ProblemCode,
      detail: string,
      headers: Record<string, string> = {},
    ) => {
      res.writeHead(status, { 'Content-Type': PROBLEM_CONTENT_TYPE, ...headers });
      res.end(JSON.stringify(problem(status, code, detail)));
    };
    const path = (req.url ?? '/').split('?')[0];
    if (path !== '/metrics') return send(404, 'NOT_FOUND', 'Only /metrics is served here');
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      return send(405, 'METHOD_NOT_ALLOWED', `${req.method} is not allowed on /metrics`, {
        Allow: 'GET, HEAD',
      });
    }
    if (!authorized(req.headers.authorization)) {
      limitRefusals.inc({ limit: 'metrics_token' });
      return send(401, 'UNAUTHORIZED', 'A valid bearer token is required', {
        'WWW-Authenticate': 'Bearer realm="metrics"',
      });
    }
    metricsBody(metrics).then(
      ({ headers, body }) => {
        res.writeHead(200, { ...headers, 'Content-Length': String(Buffer.byteLength(body)) });
        res.end(req.method === 'HEAD' ? undefined : body);
      },
      (err: unknown) => {
        logger.error({ err }, 'collecting metrics failed');
        send(500, 'INTERNAL', 'An internal error occurred');
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err) =>
      reject(
        new Error(`cannot listen on ${host}:${port} for /metrics (METRICS_PORT in use?): ${err.message}`),
      ),
    );
    server.listen(port, host, () => resolve());
  });
  const bound = (server.address() as AddressInfo).port;
  logger.info({ host, port: bound, tokenRequired: token !== undefined }, 'metrics listening');
  let closed: Promise<void> | undefined;
  return {
    port: bound,
    close() {
      closed ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closed;
    },
  };
}
