import { randomUUID } from 'node:crypto';
import type { Logger } from '../../lib/logger.ts';
import type { ServerMetrics } from '../../lib/metrics.ts';
import { parseJsonBody } from './body.ts';
import { type CorsRule, corsHeaders } from './cors.ts';
import { type HttpRateLimits, type LimitDecision, tokenKey } from './rate-limit.ts';
import { errorReply, handlerReply, problemReply, type Reply } from './reply.ts';
import { Router } from './router.ts';
import type { StaticFiles } from './static-files.ts';
import type {
  AuthContext,
  HttpMethod,
  HttpRequest,
  NetHttpReply,
  NetHttpRequest,
  RateLimitClass,
  RouteDef,
} from './types.ts';

/**
 * The HTTP request pipeline: CORS → route match → rate limit (per bearer token when it verifies, else
 * per address) → body size → bearer → handler →
 * problem+json on any failure → one log line. The network thread (net/thread/net-worker.ts) reads the
 * request and its body and writes the reply; this runs on the main thread, next to the game.
 */

export interface HttpPipelineOptions {
  routes: readonly RouteDef[];
  logger: Logger;
  metrics: Pick<ServerMetrics, 'httpRequests' | 'limitRefusals'>;
  corsRules: readonly CorsRule[];
  rateLimits: HttpRateLimits;
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
  req: NetHttpRequest;
  aborted: () => boolean;
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
}

/** The largest body any route accepts: what the network thread reads before handing a request over. */
export function maxBodyBytes(routes: readonly RouteDef[]): number {
  return Math.max(DEFAULT_MAX_BODY_BYTES, ...routes.map((r) => r.maxBodyBytes ?? 0));
}

export type HttpPipeline = (req: NetHttpRequest, aborted: () => boolean) => Promise<NetHttpReply>;

export function createHttpPipeline(opts: HttpPipelineOptions): HttpPipeline {
  const router = new Router(opts.routes);
  return async (req, aborted) => {
    const ctx: Ctx = {
      req,
      aborted,
      started: performance.now(),
      requestId: randomUUID(),
      method: req.method,
      path: req.url,
      rawQuery: req.rawQuery,
      headers: req.headers,
      ip: req.ip,
      common: {},
      routeLabel: 'unmatched',
    };
    ctx.common['X-Request-Id'] = ctx.requestId;
    ctx.common['X-Content-Type-Options'] = 'nosniff';
    const origin = req.headers['origin'];
    if (origin !== undefined) {
      ctx.common['Vary'] = 'Origin';
      Object.assign(ctx.common, corsHeaders(origin, opts.corsRules));
    }
    let reply: Reply;
    try {
      reply = await handle(ctx, router, opts);
    } catch (err) {
      reply = errorReply(err);
    }
    return finish(ctx, reply, opts);
  };
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

  // A REST request with a bearer token that verifies is counted in the token's own window, not the
  // address's, on a route that requires the token or on a public one (an agent reading the content
  // routes with its token): agents and their dashboards behind one address each have their budget. A
  // token whose window is used up is refused without verifying it again; one that does not verify
  // counts against the address, as a request without a token does.
  const cls = route?.rateLimit ?? defaultRateLimitClass(path);
  const bearer = route !== undefined ? bearerToken(ctx.headers) : undefined;
  let verified: AuthContext | null | undefined;
  let decision: LimitDecision;
  if (bearer !== undefined && cls === 'rest') {
    const key = tokenKey(bearer);
    if (!opts.rateLimits.isTokenBlocked(key)) verified = await verify(bearer, opts);
    decision = verified === null ? opts.rateLimits.check(ctx.ip, cls) : opts.rateLimits.checkToken(key);
  } else {
    decision = opts.rateLimits.check(ctx.ip, cls);
  }
  if (decision.kind !== 'uncounted') Object.assign(ctx.common, decision.headers);
  if (decision.kind === 'refused') {
    const limit = decision.by === 'auth' ? 'auth_attempts' : 'http_rate';
    opts.metrics.limitRefusals.inc({ limit });
    if (decision.first) {
      const line = { ip: ctx.ip, limit, path: ctx.path, retryAfter: decision.retryAfterSeconds };
      if (decision.by === 'token')
        opts.logger.warn(
          { ...line, accountId: verified?.accountId },
          'limit reached: token blocked until its window ends',
        );
      else opts.logger.warn(line, 'limit reached: address blocked until its window ends');
    }
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

  let auth: AuthContext | undefined;
  if (route.auth === 'bearer') {
    if (verified === undefined) verified = bearer === undefined ? null : await verify(bearer, opts);
    if (verified === null) return problemReply(401, 'UNAUTHORIZED', 'A valid bearer token is required');
    auth = verified;
  }

  // The network thread read the body up to the largest limit of any route; this route's may be lower.
  const limit = route.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const raw = BODY_METHODS.has(method) ? ctx.req.body : undefined;
  if ((BODY_METHODS.has(method) && ctx.req.tooLarge) || (raw !== undefined && raw.byteLength > limit)) {
    return { ...tooLarge(limit), close: true };
  }
  const body =
    raw === undefined ? undefined : parseJsonBody(Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength));
  if (ctx.aborted()) return { status: 499, headers: {}, body: undefined };
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

const bearerToken = (headers: Record<string, string>): string | undefined =>
  /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(headers['authorization'] ?? '')?.[1];

const verify = async (token: string, opts: HttpPipelineOptions): Promise<AuthContext | null> =>
  opts.verifyBearer ? await opts.verifyBearer(token) : null;

const tooLarge = (limit: number) =>
  problemReply(413, 'PAYLOAD_TOO_LARGE', `The request body is larger than ${limit} bytes`);

function finish(ctx: Ctx, reply: Reply, { logger, metrics }: HttpPipelineOptions): NetHttpReply {
  const aborted = ctx.aborted();
  const status = aborted ? 499 : reply.status;
  const ms = Math.round((performance.now() - ctx.started) * 100) / 100;
  metrics.httpRequests.inc({ method: ctx.method, route: ctx.routeLabel, status: String(status) });
  // The path only, never the query string: it may carry tokens.
  const line = { reqId: ctx.requestId, method: ctx.method, path: ctx.path, status, ms, ip: ctx.ip };
  if (reply.error !== undefined && !aborted) logger.error({ ...line, err: reply.error }, 'request failed');
  else if (QUIET_PATHS.has(ctx.path)) logger.debug(line, 'request');
  else logger.info(line, 'request');
  // Common headers first (request id, CORS, rate limit), then the reply's own.
  const headers: [string, string][] = [...Object.entries(ctx.common), ...Object.entries(reply.headers)];
  return {
    id: ctx.req.id,
    status: reply.status,
    headers,
    body: reply.body,
    head: ctx.method === 'HEAD',
    // A body over the limit was not read to its end: the connection cannot carry another request.
    close: reply.close === true || ctx.req.tooLarge,
  };
}
