import { Counter, collectDefaultMetrics, Gauge, Registry } from 'prom-client';

/**
 * The server's Prometheus metrics, created once by the composition root (src/world-server.ts) and handed
 * to the adapters that count (HTTP pipeline, network thread, sessions, /metrics), so nothing counts into
 * a module-level singleton and two servers in one process keep their own figures. Other parts register
 * their own metrics on `registry` (the tick loop: src/tick-metrics.ts). Names are prefixed `game_`.
 */
export type ServerMetrics = ReturnType<typeof createServerMetrics>;

export function createServerMetrics(registry: Registry = new Registry()) {
  collectDefaultMetrics({ register: registry, prefix: 'game_' });
  const registers = [registry];
  return {
    registry,
    httpRequests: new Counter({
      name: 'game_http_requests_total',
      help: 'HTTP requests answered, by method, route pattern and status',
      labelNames: ['method', 'route', 'status'] as const,
      registers,
    }),
    wsMessagesIn: new Counter({
      name: 'game_ws_messages_in_total',
      help: 'WebSocket messages received, by outcome (ok, bad, rate_limited, too_big, invalid_utf8)',
      labelNames: ['result'] as const,
      registers,
    }),
    wsMessagesOut: new Counter({
      name: 'game_ws_messages_out_total',
      help: 'WebSocket messages sent',
      registers,
    }),
    wsBytesOut: new Counter({
      name: 'game_ws_bytes_out_total',
      help: 'WebSocket payload bytes sent',
      registers,
    }),
    wsConnections: new Gauge({
      name: 'game_ws_connections',
      help: 'Open WebSocket connections',
      registers,
    }),
    wsClosed: new Counter({
      name: 'game_ws_closed_total',
      help: 'WebSocket connections closed, by close code',
      labelNames: ['code'] as const,
      registers,
    }),
    playersOnline: new Gauge({
      name: 'game_players_online',
      help: 'Characters in the world',
      registers,
    }),
    databaseUp: new Gauge({
      name: 'game_database_up',
      help: 'Whether the database answers its health probe (1) or is down (0)',
      registers,
    }),
    /**
     * Requests and connections refused by a limit, by limit: `ws_per_address` (open WebSockets of one
     * address), `ws_unauthenticated` (sockets not yet authenticated, server-wide), `ws_origin` (a browser
     * Origin not allowed), `http_body_timeout` (a request body not received in time), `auth_attempts` (the
     * authentication window of an address, over HTTP, WebSocket and /admin), `http_rate` (the REST window),
     * `ws_message_rate` (connections closed with 4029 for flooding), `metrics_token` (a /metrics request
     * without the right token), `http_headers_too_large` (a request line and headers over 4 KiB: 431),
     * `http_pipelined` (a connection closed by uWebSockets for pipelining a request: not served).
     */
    /**
     * Payloads that could not be encoded for a connection (too deep for the encoder, circular, a value the
     * encoding cannot carry), by event: each was dropped for that connection and the tick went on.
     */
    encodeFailures: new Counter({
      name: 'game_encode_failures_total',
      help: 'Payloads dropped for a connection because they could not be encoded, by event',
      labelNames: ['event'] as const,
      registers,
    }),
    limitRefusals: new Counter({
      name: 'game_limit_refusals_total',
      help: 'Requests and connections refused by a limit, by limit',
      labelNames: ['limit'] as const,
      registers,
    }),
  };
}

export type LimitName =
  | 'ws_per_address'
  | 'ws_unauthenticated'
  | 'ws_origin'
  | 'http_body_timeout'
  | 'http_headers_too_large'
  | 'http_pipelined'
  | 'auth_attempts'
  | 'http_rate'
  | 'ws_message_rate'
  | 'metrics_token';

/** Prometheus text exposition of everything registered. */
export function metricsText(registry: Registry): Promise<string> {
  return registry.metrics();
}
