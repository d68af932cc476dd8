/**
 * Per-connection message limit of contract §1.3, in one-second windows: up to `limit` messages pass;
 * the rest are dropped, with a RATE_LIMITED notice at most once per window; a connection over twice
 * the limit in 3 consecutive windows is closed (4029).
 */

export type RateVerdict = 'pass' | 'drop' | 'drop-notify' | 'close';

export const WS_MESSAGES_PER_SECOND = 60;
const FLOOD_SECONDS = 3;

export class MessageRateLimiter {
  private window = -1;
  private count = 0;
  private notified = false;
  /** Consecutive windows, ending with the previous one, that were over twice the limit. */
  private hotWindows = 0;

  constructor(
    private readonly now: () => number,
    private readonly limit = WS_MESSAGES_PER_SECOND,
  ) {}

  accept(): RateVerdict {
    const w = Math.floor(this.now() / 1000);
    if (w !== this.window) {
      const wasHot = this.count > 2 * this.limit;
      this.hotWindows = wasHot && w === this.window + 1 ? this.hotWindows + 1 : 0;
      this.window = w;
      this.count = 0;
      this.notified = false;
    }
    this.count++;
    if (this.count <= this.limit) return 'pass';
    if (this.count > 2 * this.limit && this.hotWindows >= FLOOD_SECONDS - 1) return 'close';
    if (this.notified) return 'drop';
    this.notified = true;
    return 'drop-notify';
  }
}
