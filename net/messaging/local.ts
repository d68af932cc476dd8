import type { Announcement, CharacterMessage, MessagingPort, Presence, Subscription } from './port.ts';

/**
 * The messaging port inside one process: handlers are called on a later microtask, each with its own
 * copy, in publish order. Enough for one world; a networked implementation takes its place when several
 * worlds share the game.
 */
export class LocalMessaging implements MessagingPort {
  private readonly characters = new Map<string, Set<(m: CharacterMessage) => void>>();
  private readonly presence = new Set<(p: Presence) => void>();
  private readonly servers = new Set<() => Presence[]>();
  private readonly announcements = new Set<(a: Announcement) => void>();
  private queued: (() => void)[] = [];
  private draining: Promise<void> | null = null;
  private closed = false;

  private later(fn: () => void): void {
    if (this.closed) return;
    this.queued.push(fn);
    this.draining ??= Promise.resolve().then(() => this.drain());
  }

  private drain(): void {
    // Handlers may publish: those run in the same drain, after what was queued before them.
    for (let i = 0; i < this.queued.length; i++) {
      safely(this.queued[i] as () => void);
    }
    this.queued = [];
    this.draining = null;
  }

  publish(characterId: string, message: CharacterMessage): void {
    // Those subscribed when it is published, and still subscribed when it is delivered.
    const handlers = this.characters.get(characterId);
    if (!handlers) return;
    const to = [...handlers];
    const copy = structuredClone(message);
    this.later(() => {
      const now = this.characters.get(characterId);
      for (const h of to) if (now?.has(h)) safely(() => h(structuredClone(copy)));
    });
  }

  subscribe(characterId: string, handler: (message: CharacterMessage) => void): Subscription {
    let set = this.characters.get(characterId);
    if (!set) {
      set = new Set();
      this.characters.set(characterId, set);
    }
    set.add(handler);
    return {
      unsubscribe: () => {
        const s = this.characters.get(characterId);
        if (!s) return;
        s.delete(handler);
        if (s.size === 0) this.characters.delete(characterId);
      },
    };
  }

  presenceChanged(presence: Presence): void {
    const copy = { ...presence };
    this.later(() => {
      for (const h of [...this.presence]) safely(() => h({ ...copy }));
    });
  }

  onPresence(handler: (presence: Presence) => void): Subscription {
    this.presence.add(handler);
    return { unsubscribe: () => this.presence.delete(handler) };
  }

  servePresence(online: () => Presence[]): Subscription {
    this.servers.add(online);
    return { unsubscribe: () => this.servers.delete(online) };
  }

  requestPresence(): void {
    this.later(() => {
      for (const serve of [...this.servers])
        for (const p of serve()) for (const h of [...this.presence]) safely(() => h({ ...p }));
    });
  }

  announce(announcement: Announcement): void {
    const copy = { ...announcement };
    this.later(() => {
      for (const h of [...this.announcements]) safely(() => h({ ...copy }));
    });
  }

  onAnnouncement(handler: (announcement: Announcement) => void): Subscription {
    this.announcements.add(handler);
    return { unsubscribe: () => this.announcements.delete(handler) };
  }

  async flush(): Promise<void> {
    while (this.draining) await this.draining;
  }

  async close(): Promise<void> {
    await this.flush();
    this.closed = true;
    this.characters.clear();
    this.presence.clear();
    this.servers.clear();
    this.announcements.clear();
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
