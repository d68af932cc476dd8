/**
 * The seam between the HTTP transport and route groups. A route group is a function returning RouteDef[];
 * the transport (net/http/server.ts) handles CORS, rate limits, body parsing, bearer authentication,
 * problem+json errors and logging, so handlers only compute a response.
 */

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Which rate-limit buckets count the request (contract §3.3). */
export type RateLimitClass = 'none' | 'rest' | 'auth';

/** `bearer`: a valid session or identity-provider token is required (401 otherwise). */
export type AuthRule = 'none' | 'bearer';

export interface AuthContext {
  accountId: string;
  anonymous: boolean;
}

export interface HttpRequest {
  readonly method: HttpMethod;
  /** Decoded path, without the query string. */
  readonly path: string;
  readonly params: Readonly<Record<string, string>>;
  readonly query: URLSearchParams;
  /** Lower-cased header names. */
  readonly headers: Readonly<Record<string, string>>;
  /** Parsed JSON body (undefined when there was none). */
  readonly body: unknown;
  readonly ip: string;
  readonly requestId: string;
  /** Set when the route's auth rule is `bearer`. */
  readonly auth: AuthContext | undefined;
}

export interface HttpResponse {
  status?: number;
  headers?: Record<string, string>;
  /** An object is sent as JSON; a string or Buffer as is (set content-type in headers). */
  body?: unknown;
}

export type Handler = (req: HttpRequest) => HttpResponse | Promise<HttpResponse>;

export interface RouteDef {
  method: HttpMethod;
  /** `/api/characters/:characterId/skills`; a trailing `*` matches the rest of the path into params['*']. */
  path: string;
  handler: Handler;
  auth?: AuthRule;
  rateLimit?: RateLimitClass;
  /** Largest accepted body in bytes (default 64 KiB); larger is 413. */
  maxBodyBytes?: number;
}

/** Problem codes of contract §3.1. */
export type ProblemCode =
  | 'BAD_REQUEST'
  | 'UNAUTHORIZED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'METHOD_NOT_ALLOWED'
  | 'PAYLOAD_TOO_LARGE'
  /** 431: the request line and headers are over 4 KiB (net/http/head-limit.ts). */
  | 'HEADERS_TOO_LARGE'
  | 'REQUEST_TIMEOUT'
  | 'RATE_LIMITED'
  | 'CONFLICT'
  | 'VOICE_DISABLED'
  /** An agent's goals are paused (POST /api/agents/:agentId/goal before resume). */
  | 'GOALS_PAUSED'
  /** 503: the database is unreachable; retry after `Retry-After`. */
  | 'DATABASE_UNAVAILABLE'
  | 'INTERNAL';

/** Throw from a handler to answer with an RFC 9457 problem (contract §3.1). */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: ProblemCode,
    readonly detail: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
    this.name = 'HttpError';
  }
}

export const badRequest = (detail: string) => new HttpError(400, 'BAD_REQUEST', detail);
export const unauthorized = (detail = 'A valid bearer token is required') =>
  new HttpError(401, 'UNAUTHORIZED', detail);
export const forbidden = (detail = 'Not allowed') => new HttpError(403, 'FORBIDDEN', detail);
export const notFound = (detail = 'Not found') => new HttpError(404, 'NOT_FOUND', detail);

/** A request as received, body included (read up to maxBodyBytes); the pipeline on main answers it. */
export interface NetHttpRequest {
  id: number;
  method: string;
  /** Raw path (not decoded), without the query string. */
  url: string;
  rawQuery: string;
  /** Lower-cased names. */
  headers: Record<string, string>;
  ip: string;
  /** Undefined when there was no body; `tooLarge` when it passed maxBodyBytes (declared or streamed). */
  body: Uint8Array | undefined;
  tooLarge: boolean;
  /** The client went away while its body was being read: answer nothing, log it (499). */
  aborted: boolean;
}

export interface NetHttpReply {
  id: number;
  status: number;
  /** In write order. */
  headers: [string, string][];
  body: string | Uint8Array | undefined;
  head: boolean;
  close: boolean;
}
