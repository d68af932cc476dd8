import { backoffMs } from './backoff.ts';
import { GameConnection } from './connection.ts';

/**
 * The connection's life: log in (with the session token kept in localStorage, so the same character
 * comes back), and when the connection drops (a server restart, a network hiccup) try again with a
 * growing delay (0.5 s, 1 s, 2 s ... at most 10 s, with a little jitter), showing the state meanwhile.
 * It does not retry after a logout, a takeover by another tab (4002), a ban or a refused character.
 */

export const TOKEN_KEY = 'hyperscape.sessionToken';

export type Phase = 'connecting' | 'online' | 'reconnecting' | 'loggedOut' | 'takenOver' | 'refused';

/** Close codes after which trying again cannot help. */
const FINAL: Record<number, Phase> = { 1000: 'loggedOut', 4002: 'takenOver', 4003: 'refused' };

export interface SessionHooks {
  /** A new connection: bind the event handlers to it. */
  bind(c: GameConnection): void;
  /** Logged in (again): the character's state follows. */
  online(again: boolean): void;
  /** The phase changed: show it. `retryAt` (performance.now) while waiting to try again. */
  phase(p: Phase, detail: { attempt: number; retryAt: number | null; code?: number; error?: string }): void;
}

export class Session {
  conn: GameConnection | null = null;
  phase: Phase = 'connecting';
  private attempt = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private everOnline = false;
  private leaving = false;

  constructor(
    private readonly hooks: SessionHooks,
    private readonly name: string | null,
  ) {}

  start(): void {
    this.connect(true);
  }

  /** Try now rather than wait out the delay. */
  retryNow(): void {
    clearTimeout(this.timer);
    this.connect(true);
  }

  /** `player:logout`: the server saves the character and closes with 1000; no retry follows. */
  logout(): void {
    this.leaving = true;
    const c = this.conn;
    if (!c?.open) {
      this.set('loggedOut', {});
      return;
    }
    c.send('player:logout', {});
    // Should the server not close it (an older server), close it here: a disconnect saves too.
    setTimeout(() => {
      if (this.conn === c && c.open) c.close(1000);
    }, 5000);
  }

  private set(p: Phase, extra: { retryAt?: number | null; code?: number; error?: string }): void {
    this.phase = p;
    this.hooks.phase(p, {
      attempt: this.attempt,
      retryAt: extra.retryAt ?? null,
      code: extra.code,
      error: extra.error,
    });
  }

  private connect(useStoredToken: boolean): void {
    const stored = useStoredToken ? localStorage.getItem(TOKEN_KEY) : null;
    const c = new GameConnection(GameConnection.urlFor(location));
    this.conn = c;
    this.leaving = false;
    this.hooks.bind(c);
    c.opened()
      .then(() => {
        const auth: { authToken?: string; name?: string } = {};
        if (stored) auth.authToken = stored;
        if (this.name) auth.name = this.name;
        c.send('authenticate', auth);
      })
      .catch(() => {}); // the close handler follows and decides
    c.on('authResult', (r) => {
      if (this.conn !== c) return;
      if (!r.success) {
        if (stored && r.error === 'invalid token') {
          // A stale token (expired, or the server's secret changed): forget it and log in anew.
          localStorage.removeItem(TOKEN_KEY);
          this.conn = null;
          c.close(1000);
          this.connect(false);
        } else if (!stored) this.set('refused', { error: r.error });
        // Otherwise (a full login queue, the character still held elsewhere) the close retries later.
        return;
      }
      localStorage.setItem(TOKEN_KEY, r.sessionToken);
      const again = this.everOnline;
      this.everOnline = true;
      this.attempt = 0;
      this.set('online', {});
      this.hooks.online(again);
    });
    c.onClose((code) => {
      if (this.conn !== c) return;
      this.conn = null;
      const final = this.leaving ? 'loggedOut' : FINAL[code];
      if (final) {
        this.set(final, { code });
        return;
      }
      if (this.phase === 'refused') return;
      this.attempt++;
      const wait = backoffMs(this.attempt);
      this.set('reconnecting', { retryAt: performance.now() + wait, code });
      clearTimeout(this.timer);
      this.timer = setTimeout(() => this.connect(true), wait);
    });
  }
}
