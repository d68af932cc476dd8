import type { CommandQueue } from '../ecs/core/commands.ts';
import { type PhaseTimer, stepWorld } from '../ecs/core/tick.ts';
import type { GameWorld } from '../ecs/core/world.ts';
import type { Replicator } from '../net/replication/replicator.ts';
import { type Delivery, flushTick, prepareTick } from '../net/session/outbound.ts';
import {
  DirtyPacer,
  type HandoffLogger,
  handOff,
  type LogoutSave,
  type PersistenceSink,
} from './persistence-handoff.ts';
import type { TickMetrics } from './tick-metrics.ts';
import { type PhaseSummary, TickStats } from './tick-stats.ts';

/**
 * The fixed tick. Tick n is due at start + n * tickMs (drift never accumulates). A tick that overruns
 * its slot is logged with its phase timings and the next one waits for the next boundary: missed
 * ticks are skipped, never run back to back to catch up. Each tick: drain commands, step the world,
 * replicate and deliver, hand the tick's persistence intents over.
 */

export interface Clock {
  /** Milliseconds, monotonic, sub-millisecond precision (performance.now in production). */
  now(): number;
  /** Wall-clock epoch milliseconds, for event timestamps only. */
  wallNow(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const systemClock: Clock = {
  now: () => performance.now(),
  wallNow: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout),
};

export interface TickLogger extends HandoffLogger {
  warn(obj: object, msg?: string): void;
}

export interface TickLoopOptions {
  world: GameWorld;
  queue: CommandQueue;
  replicator: Replicator;
  delivery: Delivery;
  persistence?: PersistenceSink | undefined;
  logger: TickLogger;
  metrics?: TickMetrics | undefined;
  clock?: Clock;
  tickMs?: number;
  /**
   * SAVE_INTERVAL in ms: dirty characters are handed over spaced by a twentieth of it, at most 5 ticks
   * (DirtyPacer). Without it, every dirty character is handed over every tick.
   */
  saveIntervalMs?: number | undefined;
  /** Called at the end of every tick with the logout saves it started. */
  afterTick?: (saves: LogoutSave[]) => void;
}

export interface TickStatus {
  number: number;
  lastMs: number;
  p50Ms: number;
  p99Ms: number;
  overruns: number;
  skipped: number;
  phases: Record<string, PhaseSummary>;
}

export class TickLoop {
  readonly stats = new TickStats();
  private readonly clock: Clock;
  private readonly tickMs: number;
  private startAt = 0;
  private n = 0;
  private timer: unknown = null;
  private running = false;
  private overruns = 0;
  private skipped = 0;
  private readonly phaseStart = new Map<string, number>();
  private readonly lastPhases = new Map<string, number>();
  private readonly phaseTimer: PhaseTimer;
  private readonly pacer: DirtyPacer | undefined;

  constructor(private readonly opts: TickLoopOptions) {
    this.clock = opts.clock ?? systemClock;
    this.tickMs = opts.tickMs ?? opts.world.tickMs;
    this.pacer =
      opts.saveIntervalMs === undefined
        ? undefined
        : DirtyPacer.forInterval(opts.saveIntervalMs, this.tickMs);
    this.phaseTimer = {
      start: (phase) => this.phaseStart.set(phase, this.clock.now()),
      end: (phase) => this.endPhase(phase),
    };
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.startAt = this.clock.now();
    this.n = 0;
    this.schedule();
  }

  stop(): void {
    this.running = false;
    if (this.timer !== null) this.clock.clearTimeout(this.timer);
    this.timer = null;
  }

  get isRunning(): boolean {
    return this.running;
  }

  private schedule(): void {
    this.n += 1;
    const due = this.startAt + this.n * this.tickMs;
    this.timer = this.clock.setTimeout(() => this.onTimer(), Math.max(0, due - this.clock.now()));
  }

  private onTimer(): void {
    this.timer = null;
    if (!this.running) return;
    const slotEnd = this.startAt + (this.n + 1) * this.tickMs;
    this.runTick();
    const now = this.clock.now();
    if (now > slotEnd) {
      // Overran into the next slot: skip to the boundary after now instead of catching up.
      const next = Math.floor((now - this.startAt) / this.tickMs) + 1;
      const missed = next - (this.n + 1);
      this.overruns++;
      this.skipped += missed;
      this.opts.metrics?.overruns.inc();
      this.opts.logger.warn(
        {
          tick: this.opts.world.tick,
          ms: this.stats.total.last,
          tickMs: this.tickMs,
          skipped: missed,
          phases: Object.fromEntries(this.lastPhases),
        },
        'tick overran its slot',
      );
      this.n = next - 1;
    }
    if (this.running) this.schedule();
  }

  private endPhase(phase: string): void {
    const ms = this.clock.now() - (this.phaseStart.get(phase) ?? this.clock.now());
    this.lastPhases.set(phase, Math.round(ms * 1000) / 1000);
    this.stats.phase(phase).add(ms);
    this.opts.metrics?.phaseSeconds.observe({ phase }, ms / 1000);
  }

  /** One whole tick, synchronously (the timer calls this; tests may call it directly). Returns the
   *  logout saves it started. */
  runTick(): LogoutSave[] {
    this.inTick = true;
    try {
      return this.tickOnce();
    } finally {
      this.inTick = false;
    }
  }

  /**
   * True while a tick runs, its after-tick hand-offs included: what arrives meanwhile (a callback the
   * tick itself triggers) waits for the next tick instead of being applied in the middle of this one.
   */
  get ticking(): boolean {
    return this.inTick;
  }

  private inTick = false;

  private tickOnce(): LogoutSave[] {
    const { world, queue, replicator, delivery, persistence, metrics, logger } = this.opts;
    const t0 = this.clock.now();
    this.lastPhases.clear();
    const commands = queue.drain();
    stepWorld(world, commands, this.clock.wallNow(), this.phaseTimer);
    this.phaseTimer.start('replication');
    const prepared = prepareTick(world, replicator, delivery);
    this.phaseTimer.end('replication');
    // The socket writes on their own: they grow with connections, not with what the world did.
    this.phaseTimer.start('delivery');
    flushTick(prepared);
    this.phaseTimer.end('delivery');
    const sent = prepared.stats;
    let saves: LogoutSave[] = [];
    if (persistence) {
      this.phaseTimer.start('persistence');
      saves = handOff(world, persistence, queue, logger, this.pacer);
      this.phaseTimer.end('persistence');
    }
    const ms = this.clock.now() - t0;
    this.stats.total.add(ms);
    if (metrics) {
      metrics.tickSeconds.observe(ms / 1000);
      metrics.playersOnline.set(world.players.size);
      metrics.messagesIn.inc(commands.length);
      metrics.messagesOut.inc(sent.messages);
      metrics.bytesOut.inc(sent.bytes);
    }
    this.opts.afterTick?.(saves);
    return saves;
  }

  /** For /status: never waits on the tick, only reads what the last ticks recorded. */
  status(): TickStatus {
    const s = this.stats.summary();
    return {
      number: this.opts.world.tick,
      lastMs: s.total.lastMs,
      p50Ms: s.total.p50Ms,
      p99Ms: s.total.p99Ms,
      overruns: this.overruns,
      skipped: this.skipped,
      phases: s.phases,
    };
  }
}
