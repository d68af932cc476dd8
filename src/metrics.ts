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

/** Prometheus text exposition of everything registered. */
export function metricsText(): Promise<string> {
  return registry.metrics();
}

export const METRICS_CONTENT_TYPE = registry.contentType;
