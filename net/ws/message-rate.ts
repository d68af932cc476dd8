/**
 * Per-connection message limit of contract §1.3. Up to `limit` messages pass in each one-second
 * window; the rest are dropped, with a RATE_LIMITED notice at most once per window.
 *
 * A connection that keeps sending at over twice the limit for 3 seconds is closed (4029). "Sending at
 * over twice the limit" is measured over the trailing second (ten 100 ms buckets), not per wall-clock
 * window: counting whole windows closed a flood that began late in a window after about 1.9 s. The
 * streak starts at the first message at which the trailing second holds more than twice the limit,
 * ends at any message at which it does not, and the connection is closed at the first message 3 s or
 * more into a streak.
 */

export type RateVerdict = 'pass' | 'drop' | 'drop-notify' | 'close';

export const WS_MESSAGES_PER_SECOND = 60;
export const FLOOD_MS = 3000;
const BUCKET_MS = 100;
const BUCKETS = 10;

export class MessageRateLimiter {
  private window = -1;
  private count = 0;
  private notified = false;
  /** Messages per 100 ms bucket of the trailing second (a ring), and their sum. */
  private readonly buckets = new Uint16Array(BUCKETS);
  private bucket = -1;
  private trailing = 0;
  /** When the current over-twice-the-limit streak began (ms), or -1. */
  private hotSince = -1;

  constructor(
    private readonly now: () => number,
    private readonly limit = WS_MESSAGES_PER_SECOND,
  ) {}

  accept(): RateVerdict {
    const t = this.now();
    if (this.countTrailing(t) > 2 * this.limit) {
      if (this.hotSince < 0) this.hotSince = t;
      else if (t - this.hotSince >= FLOOD_MS) return 'close';
    } else {
      this.hotSince = -1;
    }
    const w = Math.floor(t / 1000);
    if (w !== this.window) {
      this.window = w;
      this.count = 0;
      this.notified = false;
    }
    this.count++;
    if (this.count <= this.limit) return 'pass';
    if (this.notified) return 'drop';
    this.notified = true;
    return 'drop-notify';
  }

  /** Adds this message to the trailing second and returns the count over it. */
  private countTrailing(t: number): number {
    const b = Math.floor(t / BUCKET_MS);
    if (b !== this.bucket) {
      // Buckets that fell out of the trailing second since the last message are emptied.
      const stale = this.bucket < 0 ? BUCKETS : Math.min(BUCKETS, b - this.bucket);
      for (let i = 1; i <= stale; i++) {
        const k = (((this.bucket + i) % BUCKETS) + BUCKETS) % BUCKETS;
        this.trailing -= this.buckets[k] as number;
        this.buckets[k] = 0;
      }
      this.bucket = b;
    }
    const k = ((b % BUCKETS) + BUCKETS) % BUCKETS;
    if ((this.buckets[k] as number) < 0xffff) {
      this.buckets[k] = (this.buckets[k] as number) + 1;
      this.trailing++;
    }
    return this.trailing;
  }
}
