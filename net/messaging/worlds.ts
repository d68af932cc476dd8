import type { NatsConnection, Subscription } from 'nats';
import type { RouteDef } from '../http/types.ts';

/**
 * The world list (GET /api/worlds, docs/scaling.md): every world of the game, its players online, the
 * address clients connect to, and whether it is up. With NATS each world publishes a heartbeat on
 * `<prefix>.worlds` every `intervalMs`; a world not heard from for three intervals is listed `offline`
 * (a clean stop says so at once; each heartbeat carries its world's interval). Without NATS the list is
 * this world alone.
 */

export interface WorldInfo {
  id: number;
  playersOnline: number;
  /** The WebSocket address clients connect to (PUBLIC_WS_URL). */
  address: string;
  status: 'online' | 'offline';
}

export interface WorldDirectory {
  list(): WorldInfo[];
  /**
   * Another world came up (first heard, or heard again after going quiet) or went down (a clean stop,
   * or no heartbeat for three intervals): once per change.
   */
  onStatus(handler: (world: number, status: WorldInfo['status']) => void): void;
  close(): Promise<void>;
}

export interface ThisWorld {
  id: number;
  address: string;
  playersOnline(): number;
}

/** One world, no bus. */
export class LocalWorldDirectory implements WorldDirectory {
  constructor(private readonly self: ThisWorld) {}
  list(): WorldInfo[] {
    const { id, address } = this.self;
    return [{ id, address, playersOnline: this.self.playersOnline(), status: 'online' }];
  }
  onStatus(): void {
    // No other world.
  }
  async close(): Promise<void> {}
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export class NatsWorldDirectory implements WorldDirectory {
  /** Each world's last heartbeat, when it came, its interval, whether the world counts as up. */
  private readonly seen = new Map<number, { info: WorldInfo; at: number; everyMs: number; up: boolean }>();
  private readonly statusHandlers: ((world: number, status: WorldInfo['status']) => void)[] = [];
  private readonly sub: Subscription;
  private readonly timer: NodeJS.Timeout;
  private closed = false;

  constructor(
    private readonly nc: NatsConnection,
    private readonly prefix: string,
    private readonly self: ThisWorld,
    private readonly intervalMs = 2000,
    private readonly now: () => number = Date.now,
  ) {
    this.sub = nc.subscribe(`${prefix}.worlds`, {
      callback: (err, msg) => {
        if (err) return;
        try {
          const { everyMs, ...info } = JSON.parse(decoder.decode(msg.data)) as WorldInfo & {
            everyMs?: number;
          };
          if (typeof info.id !== 'number' || info.id === this.self.id) return;
          const was = this.seen.get(info.id)?.up ?? false;
          const up = info.status === 'online';
          const every = typeof everyMs === 'number' && everyMs > 0 ? everyMs : this.intervalMs;
          this.seen.set(info.id, { info, at: this.now(), everyMs: every, up });
          if (up !== was) this.changed(info.id, up ? 'online' : 'offline');
        } catch {
          // not a heartbeat
        }
      },
    });
    this.beat('online');
    this.timer = setInterval(() => {
      this.beat('online');
      this.checkStale();
    }, intervalMs);
    this.timer.unref();
  }

  onStatus(handler: (world: number, status: WorldInfo['status']) => void): void {
    this.statusHandlers.push(handler);
  }

  private changed(world: number, status: WorldInfo['status']): void {
    for (const h of this.statusHandlers) {
      try {
        h(world, status);
      } catch {
        // the handler's own problem
      }
    }
  }

  /** Worlds not heard from for three intervals are down (a killed world never says so). */
  private checkStale(): void {
    const now = this.now();
    for (const [id, entry] of this.seen) {
      if (!entry.up || now - entry.at <= 3 * entry.everyMs) continue;
      entry.up = false;
      this.changed(id, 'offline');
    }
  }

  private beat(status: WorldInfo['status']): void {
    if (this.nc.isClosed()) return;
    const { id, address } = this.self;
    const info: WorldInfo = { id, address, playersOnline: this.self.playersOnline(), status };
    // The interval goes along: worlds with different intervals judge each other's silence right.
    this.nc.publish(
      `${this.prefix}.worlds`,
      encoder.encode(JSON.stringify({ ...info, everyMs: this.intervalMs })),
    );
  }

  list(): WorldInfo[] {
    const now = this.now();
    const out: WorldInfo[] = [];
    for (const { info, at, everyMs } of this.seen.values()) {
      const stale = now - at > 3 * everyMs;
      out.push({ ...info, status: stale ? 'offline' : info.status });
    }
    const { id, address } = this.self;
    if (!this.closed) out.push({ id, address, playersOnline: this.self.playersOnline(), status: 'online' });
    return out.sort((a, b) => a.id - b.id);
  }

  /** A clean stop: the others list this world offline at once. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.timer);
    this.beat('offline');
    this.sub.unsubscribe();
    if (!this.nc.isClosed()) await this.nc.flush().catch(() => {});
  }
}

/** GET /api/worlds: public, never cached (players online changes). */
export function worldRoutes(directory: WorldDirectory): RouteDef[] {
  return [
    {
      method: 'GET',
      path: '/api/worlds',
      handler: () => ({ headers: { 'cache-control': 'no-store' }, body: { worlds: directory.list() } }),
    },
  ];
}
