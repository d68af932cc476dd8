/**
 * Database health for /status, checked in the background so /status never waits on the database
 * (contract §3.5: 200 within 3 s even while busy; 503 with the same shape when the database is down).
 * A probe that times out while other database calls keep completing means busy, not down: with the
 * embedded database a login storm queues the probe behind thousands of writes.
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
      /** When a database call last completed (performance.now() ms). */
      lastActivityMs?: () => number;
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
      const busy = result === 'timeout' && (this.opts.lastActivityMs?.() ?? -1) >= started;
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
