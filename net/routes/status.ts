import type { RouteDef } from '../http/types.ts';

/**
 * What /status reports. Every method returns a value the owner already holds (cached by the tick loop
 * and the database health probe): /status must answer within 3 s while the world is busy, so it never
 * waits on the tick or on a query.
 */
export interface StatusSource {
  tick(): { number: number; lastMs: number; p99Ms: number };
  playersOnline(): number;
  databaseOk(): boolean;
}

export interface StatusBody {
  status: 'ok' | 'degraded';
  uptimeSeconds: number;
  tick: { number: number; lastMs: number; p99Ms: number };
  playersOnline: number;
  database: 'ok' | 'down';
}

/** GET /status (contract §3.5): 200, or 503 with the same shape when the database is down. */
export function statusRoutes(
  source: StatusSource,
  startedAt: number,
  now: () => number = Date.now,
): RouteDef[] {
  return [
    {
      method: 'GET',
      path: '/status',
      rateLimit: 'none',
      handler: () => {
        const dbOk = source.databaseOk();
        const t = source.tick();
        const body: StatusBody = {
          status: dbOk ? 'ok' : 'degraded',
          uptimeSeconds: Math.floor((now() - startedAt) / 1000),
          tick: { number: t.number, lastMs: t.lastMs, p99Ms: t.p99Ms },
          playersOnline: source.playersOnline(),
          database: dbOk ? 'ok' : 'down',
        };
        return { status: dbOk ? 200 : 503, headers: { 'Cache-Control': 'no-store' }, body };
      },
    },
  ];
}
