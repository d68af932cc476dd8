import { createHash, timingSafeEqual } from 'node:crypto';
import { metricsText, type ServerMetrics } from '../../lib/metrics.ts';
import { HttpError, type RouteDef } from '../http/types.ts';
import type { AuthAttemptLimiter } from '../session/admin.ts';

/**
 * /metrics: Prometheus text format of the server's metrics registry (lib/metrics.ts, created by the composition root). By default it is served only by the
 * separate listener on METRICS_HOST:METRICS_PORT (127.0.0.1:9464, src/metrics-server.ts). With
 * METRICS_TOKEN set it is also served here, on the public port, to `Authorization: Bearer <token>` only,
 * and the separate listener asks for the same token.
 */

const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();

/**
 * A check of `Authorization` against the token: compares SHA-256 digests in constant time, so neither
 * the token's content nor its length leaks through timing. No token configured: always true.
 */
export function metricsTokenCheck(token: string | undefined): (authorization: string | undefined) => boolean {
  if (token === undefined) return () => true;
  const expected = digest(token);
  return (authorization) => {
    const given = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization ?? '')?.[1] ?? '';
    return timingSafeEqual(digest(given), expected);
  };
}

export async function metricsBody(
  metrics: Pick<ServerMetrics, 'registry'>,
): Promise<{ headers: Record<string, string>; body: string }> {
  return {
    headers: { 'Content-Type': metrics.registry.contentType, 'Cache-Control': 'no-store' },
    body: await metricsText(metrics.registry),
  };
}

/**
 * GET /metrics on the public port: only when a token is configured (no route at all otherwise: 404).
 * A wrong token is 401 and counts as a failed authentication of the address (the limit of /api/auth/*),
 * so the token cannot be guessed faster than a login.
 */
export function metricsRoutes(
  token: string | undefined,
  limiter: AuthAttemptLimiter,
  metrics: Pick<ServerMetrics, 'registry' | 'limitRefusals'>,
): RouteDef[] {
  if (token === undefined) return [];
  const { limitRefusals } = metrics;
  const authorized = metricsTokenCheck(token);
  return [
    {
      method: 'GET',
      path: '/metrics',
      rateLimit: 'none',
      handler: async (req) => {
        if (limiter.isAuthBlocked(req.ip)) {
          limitRefusals.inc({ limit: 'auth_attempts' });
          throw new HttpError(429, 'RATE_LIMITED', 'Too many failed authentication attempts', {
            'Retry-After': '60',
          });
        }
        if (!authorized(req.headers['authorization'])) {
          limiter.countAuthFailure(req.ip);
          limitRefusals.inc({ limit: 'metrics_token' });
          throw new HttpError(401, 'UNAUTHORIZED', 'A valid bearer token is required', {
            'WWW-Authenticate': 'Bearer realm="metrics"',
          });
        }
        return metricsBody(metrics);
      },
    },
  ];
}
