import { QUESTS } from 'virtual:content';
import type { App } from './app.ts';
import { HELP_LINES } from './commands.ts';
import { npcHome, npcName } from './content.ts';
import { clock } from './messages.ts';
import { type Hint, nextHint } from './quest-guide.ts';
import type { Phase, Session } from './session.ts';
import { tickMagic } from './ui/combat.ts';

/**
 * The lines around the game: the status (where you are, tick, players online, ping, voice, what you
 * fight or do), the hint of what to do next, the connection banner while it is down, and /help.
 */

export class Hud {
  private playersOnline: number | null = null;
  private pingMs: number | null = null;
  private retry: { at: number; attempt: number } | null = null;
  private hintCache: { key: string; hint: Hint | null } = { key: '', hint: null };

  constructor(
    private readonly app: App,
    private readonly session: () => Session,
  ) {}

  help(): void {
    this.app.ui.chatLine('Commands you can type:', 'system');
    for (const line of HELP_LINES) this.app.ui.chatLine(line, 'system');
  }

  /** The next thing to do (recomputed when the quests or my tile change). */
  hint(): Hint | null {
    const { state } = this.app;
    const me = state.me;
    if (!me || !state.quests) return null;
    const key = `${me.position.x},${me.position.z}:${JSON.stringify(state.quests.quests)}`;
    if (this.hintCache.key === key) return this.hintCache.hint;
    const at = (npcId: string) => {
      const seen = [...state.entities.values()].find((e) => e.npcId === npcId);
      return seen ? { x: seen.x, z: seen.z } : npcHome(npcId);
    };
    const hint = nextHint(QUESTS, state.quests.quests, me.skills, me.position, at, npcName);
    this.hintCache = { key, hint };
    return hint;
  }

  tick(now: number, hint: Hint | null): void {
    const { state, ui, progress } = this.app;
    const me = state.me;
    if (!me) return;
    ui.hint(hint?.text ?? '');
    const fightingId = state.entities.get(me.id)?.targetId;
    const target = fightingId ? state.entities.get(fightingId) : undefined;
    ui.status([
      `${me.name} at ${me.position.x}, ${me.position.z}`,
      `tick ${state.tick}  players ${this.playersOnline ?? '?'}  ping ${this.pingMs === null ? '?' : `${this.pingMs} ms`}`,
      `voice ${state.voice.enabled ? (state.voice.room ?? '…') : 'off'}`,
      ...(target ? [`fighting ${target.name ?? target.npcId ?? fightingId}`] : []),
      ...(progress.current ? [progress.text()] : []),
    ]);
    if (this.retry) {
      const s = Math.max(0, (this.retry.at - now) / 1000);
      ui.connection(`Connection lost. Reconnecting in ${clock(s)} (attempt ${this.retry.attempt})…`, {
        label: 'Retry now',
        run: () => this.session().retryNow(),
      });
    }
    tickMagic(this.app, now);
  }

  phase(p: Phase, detail: { attempt: number; retryAt: number | null; code?: number; error?: string }): void {
    const { ui } = this.app;
    this.retry = null;
    document.body.dataset['phase'] = p;
    switch (p) {
      case 'online':
        ui.connection('');
        return;
      case 'connecting':
        ui.connection('Connecting…');
        return;
      case 'reconnecting':
        this.retry = { at: detail.retryAt ?? performance.now(), attempt: detail.attempt };
        if (detail.attempt === 1) ui.chatLine('Connection lost: reconnecting…', 'error');
        return;
      case 'loggedOut':
        ui.connection('You have logged out. Your character is saved.', {
          label: 'Log in again',
          run: () => this.session().retryNow(),
        });
        ui.chatLine('You have logged out.', 'system');
        return;
      case 'takenOver':
        ui.connection('You logged in somewhere else (another tab or window).', {
          label: 'Play here',
          run: () => this.session().retryNow(),
        });
        ui.chatLine('Logged in elsewhere.', 'error');
        return;
      case 'refused':
        ui.connection(`The server refused the login: ${detail.error ?? `code ${detail.code}`}.`, {
          label: 'Try again',
          run: () => this.session().retryNow(),
        });
        ui.chatLine(`Login failed: ${detail.error ?? `code ${detail.code}`}.`, 'error');
        return;
    }
  }

  /** Players online from /status and the round trip of /health (neither is rate limited). */
  async poll(): Promise<void> {
    try {
      const t0 = performance.now();
      await fetch('/health', { cache: 'no-store' });
      this.pingMs = Math.round(performance.now() - t0);
      const s = (await (await fetch('/status', { cache: 'no-store' })).json()) as { playersOnline: number };
      this.playersOnline = s.playersOnline;
    } catch {
      this.pingMs = null;
    }
  }

  /** Ask for a voice token to learn the room (this client shows the room; it does not send audio). */
  async fetchVoiceRoom(): Promise<void> {
    const token = this.app.state.sessionToken;
    if (!token) return;
    const res = await fetch('/api/voice/token', { headers: { authorization: `Bearer ${token}` } });
    if (res.ok) this.app.state.voice.room = ((await res.json()) as { room: string }).room;
  }
}
