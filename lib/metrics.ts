import { Counter, collectDefaultMetrics, Gauge, Registry } from 'prom-client';

/**
 * The process's Prometheus registry, served by GET /metrics. Other parts register their own metrics on
 * `registry` (e.g. `new Histogram({ name, help, registers: [registry] })`). Names are prefixed `game_`.
 */
export const registry = new Registry();
collectDefaultMetrics({ register: registry, prefix: 'game_' });

export const httpRequests = new Counter({
  name: 'game_http_requests_total',
  help: 'HTTP requests answered, by method, route pattern and status',
  labelNames: ['method', 'route', 'status'] as const,
  registers: [registry],
});

export const wsMessagesIn = new Counter({
  name: 'game_ws_messages_in_total',
  help: 'WebSocket messages received, by outcome (ok, bad, rate_limited)',
  labelNames: ['result'] as const,
  registers: [registry],
});

export const wsMessagesOut = new Counter({
  name: 'game_ws_messages_out_total',
  help: 'WebSocket messages sent',
  registers: [registry],
});

export const wsBytesOut = new Counter({
  name: 'game_ws_bytes_out_total',
  help: 'WebSocket payload bytes sent',
  registers: [registry],
});

export const wsConnections = new Gauge({
  name: 'game_ws_connections',
  help: 'Open WebSocket connections',
  registers: [registry],
});

export const wsClosed = new Counter({
  name: 'game_ws_closed_total',
  help: 'WebSocket connections closed, by close code',
  labelNames: ['code'] as const,
  registers: [registry],
});

export const playersOnline = new Gauge({
  name: 'game_players_online',
  help: 'Characters in the world',
  registers: [registry],
});

export const databaseUp = new Gauge({
  name: 'game_database_up',
  help: 'Whether the database answers its health probe (1) or is down (0)',
  registers: [registry],
});

/**
 * Requests and connections refused by a limit, by limit: `ws_per_address` (open WebSockets of one
 * address), `ws_unauthenticated` (sockets not yet authenticated, server-wide), `ws_origin` (a browser
 * Origin not allowed), `http_body_timeout` (a request body not received in time), `auth_attempts` (the
 * authentication window of an address, over HTTP, WebSocket and /admin), `http_rate` (the REST window),
 * `ws_message_rate` (connections closed with 4029 for flooding), `metrics_token` (a /metrics request
 * without the right token).
 */
export const limitRefusals = new Counter({
  name: 'game_limit_refusals_total',
  help: 'Requests and connections refused by a limit, by limit',
  labelNames: ['limit'] as const,
  registers: [registry],
});

export type LimitName =
  | 'ws_per_address'
  | 'ws_unauthenticated'
  | 'ws_origin'
  | 'http_body_timeout'
  | 'auth_attempts'
  | 'http_rate'
  | 'ws_message_rate'
  | 'metrics_token';

/** Prometheus text exposition of everything registered. */
export function metricsText(): Promise<string> {
  return registry.metrics();
}

export const METRICS_CONTENT_TYPE = registry.contentType;
