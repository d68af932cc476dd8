/**
 * What the player is busy with and how far along: gathering (a bar that fills over one attempt and
 * starts again at each catch), making (items made of those asked for, the current one filling) and the
 * home teleport's cast. Times come from the tick length, measured from the server's tick numbers.
 */

export class TickClock {
  private first: { tick: number; at: number } | null = null;
  /** Milliseconds a tick; 600 until measured. */
  ms = 600;

  observe(tick: number, at: number): void {
    if (this.first === null || tick < this.first.tick) {
      this.first = { tick, at };
      return;
    }
    const ticks = tick - this.first.tick;
    if (ticks >= 5) this.ms = Math.min(5000, Math.max(20, (at - this.first.at) / ticks));
    // Keep the window recent: after 200 ticks, measure from here.
    if (ticks > 200) this.first = { tick, at };
  }
}

export interface Activity {
  kind: 'gather' | 'make' | 'teleport';
  label: string;
  /** When the current attempt (or the cast) began, and how long one takes (ms). */
  start: number;
  ms: number;
  /** make: items made of `total`. */
  made: number;
  total: number;
}

export class Progress {
  current: Activity | null = null;

  begin(kind: Activity['kind'], label: string, ms: number, now: number, total = 0): void {
    this.current = { kind, label, start: now, ms: Math.max(50, ms), made: 0, total };
  }

  /** A catch, an item made: the next attempt starts now. */
  step(now: number): void {
    const a = this.current;
    if (!a) return;
    if (a.kind === 'make') {
      // Learn the real time an item takes from the first one.
      if (a.made === 0) a.ms = Math.max(50, now - a.start);
      a.made = Math.min(a.total, a.made + 1);
    }
    a.start = now;
  }

  end(kind?: Activity['kind']): void {
    if (!kind || this.current?.kind === kind) this.current = null;
  }

  /** 0..1 of the whole activity (gathering: of the current attempt). */
  fraction(now: number): number {
    const a = this.current;
    if (!a) return 0;
    const part = Math.min(1, Math.max(0, (now - a.start) / a.ms));
    if (a.kind === 'make' && a.total > 0) return Math.min(1, (a.made + Math.min(part, 0.95)) / a.total);
    if (a.kind === 'gather') return Math.min(part, 0.97);
    return part;
  }

  text(): string {
    const a = this.current;
    if (!a) return '';
    return a.kind === 'make' && a.total > 0 ? `${a.label} ${a.made}/${a.total}` : a.label;
  }
}
