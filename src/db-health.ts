/**
 * Database health for /status, checked in the background so /status never waits on the database
 * (contract §3.5: 200 within 3 s even while busy; 503 with the same shape when the database is down).
 */
export class DatabaseHealth {
  private ok = true;
  private timer: NodeJS.Timeout | undefined;
  private running = false;

  constructor(
    private readonly check: () => Promise<boolean>,
    private readonly opts: { intervalMs?: number; timeoutMs?: number; onChange?: (ok: boolean) => void } = {},
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
    try {
      const timedOut = new Promise<boolean>((resolve) => {
        timeout = setTimeout(() => resolve(false), this.opts.timeoutMs ?? 2000);
      });
      const ok = await Promise.race([this.check().catch(() => false), timedOut]);
      if (ok !== this.ok) this.opts.onChange?.(ok);
      this.ok = ok;
      return ok;
    } finally {
      clearTimeout(timeout);
      this.running = false;
    }
  }
}
