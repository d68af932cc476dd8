import { connect, createInbox, type NatsConnection, type Subscription as NatsSubscription } from 'nats';
import type { Announcement, CharacterMessage, MessagingPort, Presence, Subscription } from './port.ts';

/**
 * The messaging port over NATS (docs/scaling.md): several worlds, each with its own connection, reach
 * each other's characters. Subjects: `<prefix>.char.<characterId>` for what is published to one
 * character (one NATS subscription per character hosted here, shared by its local handlers) and
 * `<prefix>.presence` for presence changes (the publisher's own included: NATS echoes by default),
 * `<prefix>.presence.who` for "who is online?" (each serving world answers on the asker's inbox, in
 * chunks of PRESENCE_CHUNK, for PRESENCE_ANSWER_MS) and `<prefix>.announce` for announcements.
 * Messages are JSON; each handler parses its own copy. One connection keeps publish order, and NATS
 * delivers at most once: what nobody subscribes for when it arrives is dropped, like the local port.
 *
 * `flush()` is a round trip to the server: everything this connection published before it has reached
 * the server, and whatever the server sent back before the answer (this world's own subscriptions)
 * has been handed to the handlers.
 */

/** Presence entries per answer message (well under NATS's 1 MB default payload limit). */
const PRESENCE_CHUNK = 500;
/** How long a world listens for answers to its "who is online?". */
const PRESENCE_ANSWER_MS = 5000;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export interface NatsMessagingOptions {
  /** nats://host:port */
  url: string;
  /** Subject prefix: worlds of one game share it; tests use a fresh one each. */
  prefix?: string;
  /** Connection name shown by the NATS server's monitoring. */
  name?: string;
}

/** A character id as one subject token (ids are UUIDs; anything else is made safe). */
function token(id: string): string {
  return /^[A-Za-z0-9_-]+$/.test(id) ? id : Buffer.from(id).toString('hex');
}

export class NatsMessaging implements MessagingPort {
  private readonly characters = new Map<
    string,
    { sub: NatsSubscription; handlers: Set<(m: CharacterMessage) => void> }
  >();
  private readonly presenceHandlers = new Set<(p: Presence) => void>();
  private presenceSub: NatsSubscription | undefined;
  private readonly announcementHandlers = new Set<(a: Announcement) => void>();
  private announceSub: NatsSubscription | undefined;
  /** Open inboxes of this world's "who is online?" and the servers answering others' (closed on close). */
  private readonly extraSubs = new Set<NatsSubscription>();
  private closed = false;

  private constructor(
    readonly nc: NatsConnection,
    readonly prefix: string,
  ) {}

  static async connect(opts: NatsMessagingOptions): Promise<NatsMessaging> {
    const nc = await connect({
      servers: opts.url,
      name: opts.name ?? 'hyperscape-world',
      // A NATS restart must not end the world: keep trying, publishes are buffered meanwhile.
      maxReconnectAttempts: -1,
      reconnectTimeWait: 1000,
    });
    return new NatsMessaging(nc, opts.prefix ?? 'hyperscape');
  }

  subject(characterId: string): string {
    return `${this.prefix}.char.${token(characterId)}`;
  }

  publish(characterId: string, message: CharacterMessage): void {
    if (this.closed) return;
    this.nc.publish(this.subject(characterId), encoder.encode(JSON.stringify(message)));
  }

  subscribe(characterId: string, handler: (message: CharacterMessage) => void): Subscription {
    let entry = this.characters.get(characterId);
    if (!entry && !this.closed) {
      const handlers = new Set<(m: CharacterMessage) => void>();
      const sub = this.nc.subscribe(this.subject(characterId), {
        callback: (err, msg) => {
          if (err) return;
          const text = decoder.decode(msg.data);
          // Those subscribed when it arrives, each with its own copy.
          for (const h of [...handlers]) safely(() => h(JSON.parse(text) as CharacterMessage));
        },
      });
      entry = { sub, handlers };
      this.characters.set(characterId, entry);
    }
    entry?.handlers.add(handler);
    return {
      unsubscribe: () => {
        const e = this.characters.get(characterId);
        if (!e?.handlers.delete(handler)) return;
        if (e.handlers.size === 0) {
          this.characters.delete(characterId);
          e.sub.unsubscribe();
        }
      },
    };
  }

  presenceChanged(presence: Presence): void {
    if (this.closed) return;
    const { characterId, name, online, world } = presence;
    this.nc.publish(
      `${this.prefix}.presence`,
      encoder.encode(JSON.stringify({ characterId, name, online, world })),
    );
  }

  private hearPresence(p: Presence): void {
    for (const h of [...this.presenceHandlers]) safely(() => h({ ...p }));
  }

  servePresence(online: () => Presence[]): Subscription {
    if (this.closed) return { unsubscribe: () => {} };
    const sub = this.nc.subscribe(`${this.prefix}.presence.who`, {
      callback: (err, msg) => {
        if (err || !msg.reply) return;
        const all = online();
        for (let i = 0; i < all.length; i += PRESENCE_CHUNK)
          this.nc.publish(msg.reply, encoder.encode(JSON.stringify(all.slice(i, i + PRESENCE_CHUNK))));
      },
    });
    this.extraSubs.add(sub);
    return {
      unsubscribe: () => {
        this.extraSubs.delete(sub);
        sub.unsubscribe();
      },
    };
  }

  requestPresence(): void {
    if (this.closed) return;
    const inbox = createInbox(`${this.prefix}.inbox`);
    const sub = this.nc.subscribe(inbox, {
      callback: (err, msg) => {
        if (err) return;
        try {
          const list = JSON.parse(decoder.decode(msg.data)) as Presence[];
          if (Array.isArray(list)) for (const p of list) this.hearPresence(p);
        } catch {
          // not an answer
        }
      },
    });
    this.extraSubs.add(sub);
    this.nc.publish(`${this.prefix}.presence.who`, new Uint8Array(0), { reply: inbox });
    setTimeout(() => {
      this.extraSubs.delete(sub);
      sub.unsubscribe();
    }, PRESENCE_ANSWER_MS).unref();
  }

  announce(announcement: Announcement): void {
    if (this.closed) return;
    const { fromName, message, timestamp } = announcement;
    this.nc.publish(
      `${this.prefix}.announce`,
      encoder.encode(JSON.stringify({ fromName, message, timestamp })),
    );
  }

  onAnnouncement(handler: (announcement: Announcement) => void): Subscription {
    if (!this.closed) {
      this.announceSub ??= this.nc.subscribe(`${this.prefix}.announce`, {
        callback: (err, msg) => {
          if (err) return;
          const text = decoder.decode(msg.data);
          for (const h of [...this.announcementHandlers]) safely(() => h(JSON.parse(text) as Announcement));
        },
      });
      this.announcementHandlers.add(handler);
    }
    return { unsubscribe: () => this.announcementHandlers.delete(handler) };
  }

  onPresence(handler: (presence: Presence) => void): Subscription {
    if (!this.closed) {
      this.presenceSub ??= this.nc.subscribe(`${this.prefix}.presence`, {
        callback: (err, msg) => {
          if (err) return;
          try {
            this.hearPresence(JSON.parse(decoder.decode(msg.data)) as Presence);
          } catch {
            // not a presence change
          }
        },
      });
      this.presenceHandlers.add(handler);
    }
    return { unsubscribe: () => this.presenceHandlers.delete(handler) };
  }

  async flush(): Promise<void> {
    if (this.closed || this.nc.isClosed()) return;
    await this.nc.flush();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const e of this.characters.values()) e.handlers.clear();
    this.characters.clear();
    this.presenceHandlers.clear();
    this.announcementHandlers.clear();
    for (const sub of this.extraSubs) sub.unsubscribe();
    this.extraSubs.clear();
    // Drain: what was published before close still leaves; nothing more is handed to a handler here.
    await this.nc.drain().catch(() => this.nc.close());
  }
}

/** A failing handler must not stop delivery to the others. */
function safely(fn: () => void): void {
  try {
    fn();
  } catch {
    // dropped: the handler's own problem
  }
}
