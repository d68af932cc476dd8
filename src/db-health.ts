import type { DbActivity } from '../persistence/sql.ts';

/**
 * Database health for /status, checked in the background so /status never waits on the database
 * (contract §3.5: 200 within 3 s even while busy; 503 with the same shape when the database is down).
 * A probe that times out while other database calls keep completing, or while one call has been running
 * for less than `stuckAfterMs`, means busy, not down: with the embedded database a login storm queues
 * the probe behind thousands of writes, and a batch save of 2,000 characters is one long transaction.
 */
export class DatabaseHealth {
  private ok = true;
  private timer: NodeJS.Timeout | undefined;
  private running = false;

  constructor(
    private readonly check: () => Promise<boolean>,
    private readonly opts: {
      intervalMs?: number;
      timeoutMs?: number;
      onChange?: (ok: boolean) => void;
      /** What the database has been doing (see PersistencePort.activity). */
      activity?: () => DbActivity;
      /** Calls in flight without a pause for longer than this, and nothing completing: down. */
      stuckAfterMs?: number;
    } = {},
  ) {}

  /** The last known state: never blocks. */
  isOk(): boolean {
    return this.ok;
  }

  /** Probe now (awaited), then every intervalMs in the background. */
  async start(): Promise<void> {
    await this.probe();
    this.timer = setInterval(() => void this.probe(), this.opts.intervalMs ?? 5000);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  private busy(probeStarted: number): boolean {
    const a = this.opts.activity?.();
    if (a === undefined) return false;
    if (a.lastCompletedMs >= probeStarted) return true;
    return a.busySinceMs !== null && performance.now() - a.busySinceMs < (this.opts.stuckAfterMs ?? 30_000);
  }

  async probe(): Promise<boolean> {
    if (this.running) return this.ok;
    this.running = true;
    let timeout: NodeJS.Timeout | undefined;
    const started = performance.now();
    try {
      const timedOut = new Promise<'timeout'>((resolve) => {
        timeout = setTimeout(() => resolve('timeout'), this.opts.timeoutMs ?? 2000);
      });
      const result = await Promise.race([this.check().catch(() => false), timedOut]);
      const busy = result === 'timeout' && this.busy(started);
      const ok = result === true || busy;
      if (ok !== this.ok) this.opts.onChange?.(ok);
      this.ok = ok;
      return ok;
    } finally {
      clearTimeout(timeout);
      this.running = false;
    }
  }
}
