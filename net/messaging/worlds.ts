import type { NatsConnection, Subscription } from 'nats';
import type { RouteDef } from '../http/types.ts';

/**
 * The world list (GET /api/worlds, docs/scaling.md): every world of the game, its players online, the
 * address clients connect to, and whether it is up. With NATS each world publishes a heartbeat on
 * `<prefix>.worlds` every `intervalMs`; a world not heard from for three intervals is listed `offline`
 * (a clean stop says so at once). Without NATS the list is this world alone.
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
  async close(): Promise<void> {}
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export class NatsWorldDirectory implements WorldDirectory {
  private readonly seen = new Map<number, { info: WorldInfo; at: number }>();
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
          const info = JSON.parse(decoder.decode(msg.data)) as WorldInfo;
          if (typeof info.id === 'number') this.seen.set(info.id, { info, at: this.now() });
        } catch {
          // not a heartbeat
        }
      },
    });
    this.beat('online');
    this.timer = setInterval(() => this.beat('online'), intervalMs);
    this.timer.unref();
  }

  private beat(status: WorldInfo['status']): void {
    if (this.nc.isClosed()) return;
    const { id, address } = this.self;
    const info: WorldInfo = { id, address, playersOnline: this.self.playersOnline(), status };
    this.nc.publish(`${this.prefix}.worlds`, encoder.encode(JSON.stringify(info)));
  }

  list(): WorldInfo[] {
    const now = this.now();
    const out: WorldInfo[] = [];
    for (const { info, at } of this.seen.values()) {
      if (info.id === this.self.id) continue;
      const stale = now - at > 3 * this.intervalMs;
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
