/**
 * The login queue: at most `maxActive` logins run at once; the rest wait in arrival order (first come,
 * first served: nobody overtakes) in a queue of at most `maxWaiting`. A waiting login is told its
 * position (1 = next) when it is queued and then, every `reportEveryMs`, when it changed; so a client
 * knows it is waiting instead of timing out. A login whose connection closed while waiting is dropped
 * when reached, without running.
 */

export interface QueuedLogin {
  /** The login itself; the queue starts the next one when it settles. */
  run: () => Promise<void>;
  /** Told the 1-based position while waiting. */
  report: (position: number) => void;
  /** The connection went away: skip it. */
  cancelled: () => boolean;
}

export interface LoginQueueOptions {
  maxActive?: number;
  maxWaiting?: number;
  reportEveryMs?: number;
}

interface Waiting {
  login: QueuedLogin;
  reported: number;
  done: () => void;
}

export class LoginQueue {
  readonly maxActive: number;
  readonly maxWaiting: number;
  private readonly reportEveryMs: number;
  private active = 0;
  /** FIFO: `head` is the index of the next to start (shifting a 10,000-entry array per start is O(n²)). */
  private waiting: Waiting[] = [];
  private head = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(opts: LoginQueueOptions = {}) {
    this.maxActive = opts.maxActive ?? 256;
    this.maxWaiting = opts.maxWaiting ?? 20_000;
    this.reportEveryMs = opts.reportEveryMs ?? 1000;
  }

  get activeCount(): number {
    return this.active;
  }

  get waitingCount(): number {
    return this.waiting.length - this.head;
  }

  /**
   * Runs the login now or queues it. Resolves once it ran (or was skipped); 'full' when the queue is at
   * its bound (the caller refuses the login).
   */
  submit(login: QueuedLogin): Promise<void> | 'full' {
    if (this.active < this.maxActive && this.waitingCount === 0) return this.start(login);
    if (this.waitingCount >= this.maxWaiting) return 'full';
    return new Promise<void>((resolve) => {
      const position = this.waitingCount + 1;
      this.waiting.push({ login, reported: position, done: resolve });
      login.report(position);
      this.arm();
    });
  }

  /** Stops the position reports (shutdown); waiting logins still run as slots free up. */
  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private start(login: QueuedLogin): Promise<void> {
    this.active++;
    const settle = () => {
      this.active--;
      this.next();
    };
    return login.run().then(settle, settle);
  }

  private next(): void {
    while (this.active < this.maxActive && this.head < this.waiting.length) {
      const w = this.waiting[this.head] as Waiting;
      this.waiting[this.head] = undefined as unknown as Waiting;
      this.head++;
      if (w.login.cancelled()) {
        w.done();
        continue;
      }
      void this.start(w.login).then(w.done);
    }
    if (this.head > 1024 && this.head * 2 > this.waiting.length) {
      this.waiting = this.waiting.slice(this.head);
      this.head = 0;
    }
    if (this.waitingCount === 0) this.stop();
  }

  private arm(): void {
    if (this.timer !== undefined) return;
    this.timer = setInterval(() => this.reportPositions(), this.reportEveryMs);
    this.timer.unref();
  }

  /** Tells each waiting login whose position changed its new one; logins of closed connections are let go. */
  reportPositions(): void {
    let position = 0;
    const kept: Waiting[] = [];
    for (let i = this.head; i < this.waiting.length; i++) {
      const w = this.waiting[i] as Waiting;
      if (w.login.cancelled()) {
        w.done();
        continue;
      }
      position++;
      kept.push(w);
      if (w.reported !== position) {
        w.reported = position;
        w.login.report(position);
      }
    }
    this.waiting = kept;
    this.head = 0;
    if (kept.length === 0) this.stop();
  }
}
