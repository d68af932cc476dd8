import type { RouteDef } from '../http/types.ts';

/** GET /health (contract §3.5): liveness only, no dependency checks, never rate limited. */
export function healthRoutes(version: string): RouteDef[] {
  return [
    {
      method: 'GET',
      path: '/health',
      rateLimit: 'none',
      handler: () => ({
        headers: { 'Cache-Control': 'no-store' },
        body: { status: 'ok', timestamp: new Date().toISOString(), version },
      }),
    },
  ];
}
