/**
 * Fixed-window request counters per client address (contract §3.3). Memory is bounded: buckets of
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
export const AUTH_LIMIT_PER_MINUTE = 10;
const WINDOW_MS = 60_000;

export type LimitDecision =
  | { kind: 'uncounted' }
  | { kind: 'allowed'; headers: Record<string, string> }
  | {
      kind: 'refused';
      retryAfterSeconds: number;
      headers: Record<string, string>;
      /** The window that refused: the authentication one wins when both did. */
      by: 'rest' | 'auth';
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
  private readonly sweeper: NodeJS.Timeout | undefined;

  constructor(
    readonly disabled: boolean,
    now: () => number = Date.now,
    opts: { maxKeys?: number; sweepEveryMs?: number } = {},
  ) {
    this.rest = new FixedWindowCounter(REST_LIMIT_PER_MINUTE, WINDOW_MS, now, opts.maxKeys);
    this.auth = new FixedWindowCounter(AUTH_LIMIT_PER_MINUTE, WINDOW_MS, now, opts.maxKeys);
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
  }

  close(): void {
    if (this.sweeper !== undefined) clearInterval(this.sweeper);
  }
}
