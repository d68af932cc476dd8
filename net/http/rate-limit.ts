import { createHash } from 'node:crypto';

/**
 * Fixed-window request counters per client address (contract §3.3), and per bearer token for REST
 * requests whose token verified. Memory is bounded: buckets of
 * ended windows are swept, and at the cap the oldest bucket is evicted (an evicted address simply
 * starts a fresh window; refusing new addresses instead would let one flood lock everyone out).
 */

export interface WindowResult {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Whole seconds until the window ends (at least 1). */
  resetSeconds: number;
  /** This hit is the one that went over the limit (the block starts now): log it once, not every hit. */
  justExceeded?: boolean;
}

interface Bucket {
  windowStart: number;
  count: number;
}

/** The key of a bearer token's window: a digest, so the table never holds tokens (or their length). */
export function tokenKey(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}

export class FixedWindowCounter {
  // Insertion order = window start order (a bucket is re-inserted when its window restarts),
  // so expired buckets are always at the front.
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    readonly limit: number,
    readonly windowMs: number,
    private readonly now: () => number = Date.now,
    readonly maxKeys = 100_000,
  ) {}

  get size(): number {
    return this.buckets.size;
  }

  /** Count one request from `key` and say whether it is within the limit. */
  hit(key: string, weight = 1): WindowResult {
    const b = this.current(key, true)!;
    const before = b.count;
    b.count += weight;
    const r = this.result(b);
    if (before <= this.limit && b.count > this.limit) r.justExceeded = true;
    return r;
  }

  /** The state of `key`'s window without counting anything. */
  peek(key: string): WindowResult {
    const b = this.current(key, false);
    if (b === undefined) {
      return { allowed: true, limit: this.limit, remaining: this.limit, resetSeconds: this.windowMs / 1000 };
    }
    return this.result(b);
  }

  /** Drop every bucket whose window has ended. */
  sweep(): void {
    const t = this.now();
    for (const [key, b] of this.buckets) {
      if (t - b.windowStart < this.windowMs) break;
      this.buckets.delete(key);
    }
  }

  private current(key: string, create: boolean): Bucket | undefined {
    const t = this.now();
    let b = this.buckets.get(key);
    if (b !== undefined && t - b.windowStart >= this.windowMs) {
      this.buckets.delete(key);
      b = undefined;
    }
    if (b === undefined && create) {
      if (this.buckets.size >= this.maxKeys) {
        this.sweep();
        if (this.buckets.size >= this.maxKeys) {
          const oldest = this.buckets.keys().next().value;
          if (oldest !== undefined) this.buckets.delete(oldest);
        }
      }
      b = { windowStart: t, count: 0 };
      this.buckets.set(key, b);
    }
    return b;
  }

  private result(b: Bucket): WindowResult {
    const resetMs = b.windowStart + this.windowMs - this.now();
    return {
      allowed: b.count <= this.limit,
      limit: this.limit,
      remaining: Math.max(0, this.limit - b.count),
      resetSeconds: Math.max(1, Math.ceil(resetMs / 1000)),
    };
  }
}

export const REST_LIMIT_PER_MINUTE = 100;
/**
 * REST requests a window per bearer token (a request whose token verified): counted instead of the
 * address's, so the agents of a household, a lab or one machine, and their dashboards, each have their
 * own budget. A dashboard polling its two routes every 5 s makes 24 calls a minute, 96 if every call
 * were retried three times (after 1, 2 and 4 s); an agent sharing its owner's token and reacting to
 * socket events makes a few at start. 120 leaves room for both.
 */
export const TOKEN_REST_LIMIT_PER_MINUTE = 120;
export const AUTH_LIMIT_PER_MINUTE = 10;
const WINDOW_MS = 60_000;

export type LimitDecision =
  | { kind: 'uncounted' }
  | { kind: 'allowed'; headers: Record<string, string> }
  | {
      kind: 'refused';
      retryAfterSeconds: number;
      headers: Record<string, string>;
      /** The window that refused: the authentication one wins when both did; `token`: checkToken's. */
      by: 'rest' | 'auth' | 'token';
      /** The request that started the block (later ones in the window are refused quietly). */
      first: boolean;
    };

/**
 * The REST and authentication limits of one server. Auth-class requests count in both windows; the
 * headers report the tighter of the two. The admin command shares the auth window through
 * countAuthFailure/isAuthBlocked.
 */
export class HttpRateLimits {
  readonly rest: FixedWindowCounter;
  readonly auth: FixedWindowCounter;
  /** REST windows of bearer tokens, keyed by tokenKey(token). */
  readonly token: FixedWindowCounter;
  private readonly sweeper: NodeJS.Timeout | undefined;

  constructor(
    readonly disabled: boolean,
    now: () => number = Date.now,
    opts: { maxKeys?: number; sweepEveryMs?: number } = {},
  ) {
    this.rest = new FixedWindowCounter(REST_LIMIT_PER_MINUTE, WINDOW_MS, now, opts.maxKeys);
    this.auth = new FixedWindowCounter(AUTH_LIMIT_PER_MINUTE, WINDOW_MS, now, opts.maxKeys);
    this.token = new FixedWindowCounter(TOKEN_REST_LIMIT_PER_MINUTE, WINDOW_MS, now, opts.maxKeys);
    if (opts.sweepEveryMs !== 0) {
      this.sweeper = setInterval(() => this.sweep(), opts.sweepEveryMs ?? WINDOW_MS);
      this.sweeper.unref();
    }
  }

  check(ip: string, cls: 'none' | 'rest' | 'auth'): LimitDecision {
    if (this.disabled || cls === 'none') return { kind: 'uncounted' };
    const rest = this.rest.hit(ip);
    const auth = cls === 'auth' ? this.auth.hit(ip) : undefined;
    const shown = auth !== undefined && (auth.remaining < rest.remaining || !auth.allowed) ? auth : rest;
    const headers = {
      'RateLimit-Limit': String(shown.limit),
      'RateLimit-Remaining': String(shown.remaining),
      'RateLimit-Reset': String(shown.resetSeconds),
    };
    const refusedBy = [rest, auth].filter((r) => r !== undefined && !r.allowed) as WindowResult[];
    if (refusedBy.length === 0) return { kind: 'allowed', headers };
    const retryAfterSeconds = Math.max(...refusedBy.map((r) => r.resetSeconds));
    const by = auth !== undefined && !auth.allowed ? 'auth' : 'rest';
    const first = refusedBy.some((r) => r.justExceeded === true);
    return { kind: 'refused', retryAfterSeconds, headers, by, first };
  }

  /**
   * A REST request whose bearer token verified: counted in that token's window, not the address's.
   * `key` is tokenKey(token).
   */
  checkToken(key: string): LimitDecision {
    if (this.disabled) return { kind: 'uncounted' };
    const r = this.token.hit(key);
    const headers = {
      'RateLimit-Limit': String(r.limit),
      'RateLimit-Remaining': String(r.remaining),
      'RateLimit-Reset': String(r.resetSeconds),
    };
    if (r.allowed) return { kind: 'allowed', headers };
    return {
      kind: 'refused',
      retryAfterSeconds: r.resetSeconds,
      headers,
      by: 'token',
      first: r.justExceeded === true,
    };
  }

  /**
   * Whether the token's window is used up: its next request is refused without verifying the token
   * again (a window only exists for a token that verified before).
   */
  isTokenBlocked(key: string): boolean {
    return !this.disabled && this.token.peek(key).remaining === 0;
  }

  /** Count a failed authentication made outside HTTP (e.g. a wrong /admin code) against `ip`. */
  countAuthFailure(ip: string): void {
    if (!this.disabled) this.auth.hit(ip);
  }

  /** Whether `ip` has used up its authentication attempts for the current window. */
  isAuthBlocked(ip: string): boolean {
    if (this.disabled) return false;
    return this.auth.peek(ip).remaining === 0;
  }

  sweep(): void {
    this.rest.sweep();
    this.auth.sweep();
    this.token.sweep();
  }

  close(): void {
    if (this.sweeper !== undefined) clearInterval(this.sweeper);
  }
}
