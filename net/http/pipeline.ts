import type uWS from 'uWebSockets.js';
import { randomUUID } from 'node:crypto';
import type { Logger } from '../../src/logger.ts';
import { httpRequests } from '../../src/metrics.ts';
import { parseJsonBody, readBody } from './body.ts';
import { clientAddress } from './client-ip.ts';
import { type CorsRule, corsHeaders } from './cors.ts';
import type { HttpRateLimits } from './rate-limit.ts';
import { errorReply, handlerReply, problemReply, type Reply, writeReply } from './reply.ts';
import { Router } from './router.ts';
import type { StaticFiles } from './static-files.ts';
import type { AuthContext, HttpMethod, HttpRequest, RateLimitClass, RouteDef } from './types.ts';

/**
 * The HTTP request pipeline on uWS: CORS → route match → rate limit → body → bearer → handler →
 * problem+json on any failure → one corked write → one log line. Everything read from the uWS request
 * object is read synchronously, before the first await (it is stack-allocated).
 */

export interface HttpPipelineOptions {
  routes: readonly RouteDef[];
  logger: Logger;
  corsRules: readonly CorsRule[];
  rateLimits: HttpRateLimits;
  trustProxy: boolean;
  verifyBearer?: ((token: string) => Promise<AuthContext | null>) | undefined;
  staticFiles?: StaticFiles | undefined;
}

export const DEFAULT_MAX_BODY_BYTES = 64 * 1024;

const METHODS = new Set<string>(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
const BODY_METHODS = new Set<string>(['POST', 'PUT', 'PATCH', 'DELETE']);
// Polled by the platform and by scrapers: logged at debug so they do not drown the request log.
const QUIET_PATHS = new Set(['/health', '/status', '/metrics']);

/** Default class when a route does not say (documented in docs/http.md). */
export function defaultRateLimitClass(path: string): RateLimitClass {
  if (path.startsWith('/api/auth/')) return 'auth';
  if (path.startsWith('/api/')) return 'rest';
  return 'none';
}

interface Ctx {
  res: uWS.HttpResponse;
  aborted: boolean;
  started: number;
  requestId: string;
  method: string;
  path: string;
  rawQuery: string;
  headers: Record<string, string>;
  ip: string;
  /** Headers every response carries (request id, CORS, rate limit). */
  common: Record<string, string>;
  routeLabel: string;
  abortListeners: (() => void)[];
}

export function mountHttp(app: uWS.TemplatedApp, opts: HttpPipelineOptions): Router {
  const router = new Router(opts.routes);
  app.any('/*', (res, req) => {
    const headers: Record<string, string> = {};
    req.forEach((k, v) => {
      headers[k] = v;
    });
    const ctx: Ctx = {
      res,
      aborted: false,
      started: performance.now(),
      requestId: randomUUID(),
      method: req.getMethod().toUpperCase(),
      path: req.getUrl(),
      rawQuery: req.getQuery() ?? '',
      headers,
      ip: clientAddress(res.getRemoteAddressAsText(), headers['x-forwarded-for'] ?? '', opts.trustProxy),
      common: {},
      routeLabel: 'unmatched',
      abortListeners: [],
    };
    res.onAborted(() => {
      ctx.aborted = true;
      for (const cb of ctx.abortListeners) cb();
    });
    ctx.common['X-Request-Id'] = ctx.requestId;
    ctx.common['X-Content-Type-Options'] = 'nosniff';
    const origin = headers['origin'];
    if (origin !== undefined) {
      ctx.common['Vary'] = 'Origin';
      Object.assign(ctx.common, corsHeaders(origin, opts.corsRules));
    }
    handle(ctx, router, opts).then(
      (reply) => finish(ctx, reply, opts.logger),
      (err) => finish(ctx, errorReply(err), opts.logger),
    );
  });
  return router;
}

async function handle(ctx: Ctx, router: Router, opts: HttpPipelineOptions): Promise<Reply> {
  if (ctx.method === 'OPTIONS') return { status: 204, headers: {}, body: undefined };

  let path: string;
  try {
    path = decodeURIComponent(ctx.path);
  } catch {
    return problemReply(400, 'BAD_REQUEST', 'The request path is not valid percent-encoding');
  }
  const isHead = ctx.method === 'HEAD';
  const method = (isHead ? 'GET' : ctx.method) as HttpMethod;
  const match = METHODS.has(method) ? router.match(method, ctx.path) : router.matchUnknownMethod(ctx.path);
  const route = match.kind === 'found' ? match.route : undefined;
  if (route !== undefined) ctx.routeLabel = route.path;

  const decision = opts.rateLimits.check(ctx.ip, route?.rateLimit ?? defaultRateLimitClass(path));
  if (decision.kind !== 'uncounted') Object.assign(ctx.common, decision.headers);
  if (decision.kind === 'refused') {
    return problemReply(429, 'RATE_LIMITED', 'Too many requests; retry after the window ends', {
      'Retry-After': String(decision.retryAfterSeconds),
    });
  }

  if (route === undefined) {
    if (match.kind === 'method-not-allowed') {
      const allowed = match.allowed;
      const allow = [...new Set([...allowed, ...(allowed.includes('GET') ? ['HEAD'] : []), 'OPTIONS'])];
      return problemReply(405, 'METHOD_NOT_ALLOWED', `${ctx.method} is not allowed on this path`, {
        Allow: allow.join(', '),
      });
    }
    if (method === 'GET' && opts.staticFiles !== undefined) {
      const file = await opts.staticFiles.lookup(path);
      if (file !== undefined) {
        ctx.routeLabel = 'static';
        return {
          status: 200,
          headers: { 'Content-Type': file.contentType, 'Cache-Control': file.cacheControl },
          body: file.body,
        };
      }
    }
    return problemReply(404, 'NOT_FOUND', 'No resource at this path');
  }

  // The body listener must be attached now, before any await, or early chunks are lost.
  let bodyPromise: Promise<Buffer> | undefined;
  if (BODY_METHODS.has(method) && hasBody(ctx.headers)) {
    const declared = ctx.headers['content-length'];
    bodyPromise = readBody(
      ctx.res,
      declared === undefined ? undefined : Number(declared),
      route.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
      (cb) => ctx.abortListeners.push(cb),
    );
    bodyPromise.catch(() => {}); // surfaced at the await below; avoid an unhandled rejection meanwhile
  }

  let auth: AuthContext | undefined;
  if (route.auth === 'bearer') {
    const token = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(ctx.headers['authorization'] ?? '')?.[1];
    const verified = token !== undefined && opts.verifyBearer ? await opts.verifyBearer(token) : null;
    if (verified === null) return problemReply(401, 'UNAUTHORIZED', 'A valid bearer token is required');
    auth = verified;
  }

  const body = bodyPromise === undefined ? undefined : parseJsonBody(await bodyPromise);
  if (ctx.aborted) return { status: 499, headers: {}, body: undefined };
  const request: HttpRequest = {
    method,
    path,
    params: match.kind === 'found' ? match.params : {},
    query: new URLSearchParams(ctx.rawQuery),
    headers: ctx.headers,
    body,
    ip: ctx.ip,
    requestId: ctx.requestId,
    auth,
  };
  return handlerReply(await route.handler(request));
}

function hasBody(headers: Record<string, string>): boolean {
  const len = headers['content-length'];
  if (len !== undefined) return len !== '0';
  return headers['transfer-encoding'] !== undefined;
}

function finish(ctx: Ctx, reply: Reply, logger: Logger): void {
  if (!ctx.aborted) writeReply(ctx.res, reply, ctx.common, ctx.method === 'HEAD');
  const status = ctx.aborted ? 499 : reply.status;
  const ms = Math.round((performance.now() - ctx.started) * 100) / 100;
  httpRequests.inc({ method: ctx.method, route: ctx.routeLabel, status: String(status) });
  // The path only, never the query string: it may carry tokens.
  const line = { reqId: ctx.requestId, method: ctx.method, path: ctx.path, status, ms, ip: ctx.ip };
  if (reply.error !== undefined && !ctx.aborted)
    logger.error({ ...line, err: reply.error }, 'request failed');
  else if (QUIET_PATHS.has(ctx.path)) logger.debug(line, 'request');
  else logger.info(line, 'request');
}
