/**
 * Rolling timings of the tick and each of its phases: the last value and p50/p99 over a window of the
 * most recent ticks, for /status and overrun warnings. Fixed-size ring buffers: no allocation per tick.
 */

export interface PhaseSummary {
  lastMs: number;
  p50Ms: number;
  p99Ms: number;
}

export class RollingWindow {
  private readonly values: Float64Array;
  private count = 0;
  private next = 0;
  last = 0;

  constructor(size = 200) {
    this.values = new Float64Array(size);
  }

  add(v: number): void {
    this.last = v;
    this.values[this.next] = v;
    this.next = (this.next + 1) % this.values.length;
    if (this.count < this.values.length) this.count++;
  }

  summary(): PhaseSummary {
    if (this.count === 0) return { lastMs: 0, p50Ms: 0, p99Ms: 0 };
    const sorted = this.values.slice(0, this.count).sort();
    const at = (q: number) => sorted[Math.min(this.count - 1, Math.ceil(q * this.count) - 1)] as number;
    return { lastMs: round(this.last), p50Ms: round(at(0.5)), p99Ms: round(at(0.99)) };
  }
}

const round = (ms: number) => Math.round(ms * 1000) / 1000;

export class TickStats {
  readonly total = new RollingWindow();
  readonly phases = new Map<string, RollingWindow>();

  phase(name: string): RollingWindow {
    let w = this.phases.get(name);
    if (w === undefined) {
      w = new RollingWindow();
      this.phases.set(name, w);
    }
    return w;
  }

  summary(): { total: PhaseSummary; phases: Record<string, PhaseSummary> } {
    const phases: Record<string, PhaseSummary> = {};
    for (const [name, w] of this.phases) phases[name] = w.summary();
    return { total: this.total.summary(), phases };
  }
}
