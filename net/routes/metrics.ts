import { METRICS_CONTENT_TYPE, metricsText } from '../../src/metrics.ts';
import type { RouteDef } from '../http/types.ts';

/** GET /metrics: Prometheus text format of src/metrics.ts's registry. Not rate limited (scrapers). */
export function metricsRoutes(): RouteDef[] {
  return [
    {
      method: 'GET',
      path: '/metrics',
      rateLimit: 'none',
      handler: async () => ({
        headers: { 'Content-Type': METRICS_CONTENT_TYPE, 'Cache-Control': 'no-store' },
        body: await metricsText(),
      }),
    },
  ];
}
