import { type Cause, change, type Holdings, holdingsOf, type ItemWords, narrate } from './narrator.ts';
import type { ClientEventName, PlayerSync } from './wire.ts';

/**
 * Tells what happened to the player's items. A `player:sync` is compared with the last one; the
 * sentences wait a moment for the tick's other events (which the server sends after the sync: a
 * quest update, a processing stop) to say what caused the change, then go to the chat.
 */

export class Story {
  private last: Holdings | null = null;
  private pending: { before: Holdings; after: Holdings } | null = null;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private current: { cause: Cause; until: number } | null = null;
  /** Held while an activity runs (gathering, making): outlives single actions. */
  private ongoing: Cause | null = null;

  constructor(
    private readonly say: (line: string) => void,
    private readonly words: ItemWords,
  ) {}

  /** A cause for the changes of the next few seconds. */
  set(cause: Cause, ms = 4000): void {
    this.current = { cause, until: performance.now() + ms };
  }

  setOngoing(cause: Cause | null): void {
    this.ongoing = cause;
  }

  /**
   * An activity stopped (its stop event came). The tick that stopped it may also have given its last
   * item (a tree that falls on its last log), in a player:sync that follows the event: that one is still
   * told as the activity's.
   */
  ended(cause: Cause): void {
    this.set(cause, 1000);
    this.ongoing = null;
  }

  /** What a sent message makes of the next changes. */
  sent(event: ClientEventName, payload: Record<string, unknown>): void {
    const byEvent: Partial<Record<ClientEventName, Cause>> = {
      'shop:buy': { kind: 'buy' },
      'shop:sell': { kind: 'sell' },
      'inventory:drop': { kind: 'drop' },
      'inventory:use': {
        kind: payload['targetSlot'] !== undefined || payload['targetId'] !== undefined ? 'make' : 'use',
      },
      'equipment:unequip': { kind: 'use' },
      'bank:deposit': { kind: 'quiet' },
      'bank:withdraw': { kind: 'quiet' },
      tradeAccept: { kind: 'quiet' },
    };
    const cause =
      event === 'player:action' && payload['action'] === 'pickup'
        ? { kind: 'pickup' as const }
        : byEvent[event];
    if (cause) this.set(cause);
  }

  sync(s: PlayerSync): void {
    const now = holdingsOf(s);
    if (this.last === null) {
      this.last = now;
      return;
    }
    this.pending = { before: this.pending?.before ?? this.last, after: now };
    this.last = now;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.flush(), 120);
  }

  /** A new session: the next sync is the starting point, not a change. */
  reset(): void {
    clearTimeout(this.timer);
    this.last = null;
    this.pending = null;
  }

  private flush(): void {
    const p = this.pending;
    this.pending = null;
    if (!p) return;
    const live = this.current && this.current.until > performance.now() ? this.current.cause : null;
    const cause = live ?? this.ongoing ?? { kind: 'use' };
    for (const line of narrate(change(p.before, p.after), cause, this.words)) this.say(line);
  }
}
