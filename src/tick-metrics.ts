import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

/**
 * Prometheus metrics of the tick loop, registered on the registry the composition root passes in
 * (lib/metrics.ts's). Socket-level message counters belong to the transport; these count what the
 * simulation takes in (commands) and hands out (events and frames) per tick.
 */
export interface TickMetrics {
  tickSeconds: Histogram;
  phaseSeconds: Histogram<'phase'>;
  overruns: Counter;
  playersOnline: Gauge;
  messagesIn: Counter;
  messagesOut: Counter;
  bytesOut: Counter;
}

// Fine around the budgets that matter (50 ms spread, 150 ms crowd, 300 ms, the 600 ms tick).
const BUCKETS = [
  0.001, 0.0025, 0.005, 0.01, 0.02, 0.03, 0.04, 0.05, 0.06, 0.075, 0.1, 0.125, 0.15, 0.2, 0.25, 0.3, 0.4, 0.5,
  0.6, 1, 2.5,
];

/** A metric of that name already on the registry (another module created it) or a new one. */
function reuse<T>(registry: Registry, name: string, create: () => T): T {
  return (registry.getSingleMetric(name) as T | undefined) ?? create();
}

export function createTickMetrics(registry: Registry): TickMetrics {
  const registers = [registry];
  return {
    tickSeconds: reuse(
      registry,
      'game_tick_duration_seconds',
      () =>
        new Histogram({
          name: 'game_tick_duration_seconds',
          help: 'Duration of a whole tick',
          buckets: BUCKETS,
          registers,
        }),
    ),
    phaseSeconds: reuse(
      registry,
      'game_tick_phase_duration_seconds',
      () =>
        new Histogram({
          name: 'game_tick_phase_duration_seconds',
          help: 'Duration of each tick phase (commands, each system, replication, persistence)',
          labelNames: ['phase'] as const,
          buckets: BUCKETS,
          registers,
        }),
    ),
    overruns: reuse(
      registry,
      'game_tick_overruns_total',
      () =>
        new Counter({
          name: 'game_tick_overruns_total',
          help: 'Ticks that ran past the next boundary',
          registers,
        }),
    ),
    playersOnline: reuse(
      registry,
      'game_players_online',
      () => new Gauge({ name: 'game_players_online', help: 'Characters in the world', registers }),
    ),
    messagesIn: reuse(
      registry,
      'game_tick_messages_in_total',
      () =>
        new Counter({ name: 'game_tick_messages_in_total', help: 'Commands applied by the tick', registers }),
    ),
    messagesOut: reuse(
      registry,
      'game_tick_messages_out_total',
      () =>
        new Counter({
          name: 'game_tick_messages_out_total',
          help: 'Messages handed to connections by the tick (events, player:sync, world:update)',
          registers,
        }),
    ),
    bytesOut: reuse(
      registry,
      'game_tick_bytes_out_total',
      () =>
        new Counter({
          name: 'game_tick_bytes_out_total',
          help: 'Bytes of the frames handed to connections by the tick',
          registers,
        }),
    ),
  };
}
