import type { GameClient } from './client.ts';
import type { ErrorCode, ServerPayload } from './protocol.generated.ts';

/**
 * The frame shared by the long actions of activities.ts: send one command, listen to the events that
 * tell how it goes, and settle once with an outcome, never a rejection. Besides the action's own
 * endings, every activity can end `refused` (the server answered `error` for the command's event, with
 * its code and message), `timeout` or `aborted` (the caller's AbortSignal).
 */

export interface Refusal {
  code: ErrorCode;
  message: string;
}

export type Ended =
  | { status: 'refused'; error: Refusal }
  | { status: 'timeout' }
  | { status: 'aborted' }
  | { status: 'disconnected' };

export interface Progress {
  /** Units done so far (tiles walked, items gathered or made, hits landed...). */
  progress: number;
  /** Units in all, when known. */
  total?: number;
  message: string;
}

export interface ActivityOptions {
  /** Give up after this many milliseconds (the action is stopped first). */
  timeoutMs?: number;
  /** Stop the action and settle `aborted`. */
  signal?: AbortSignal;
  /** Called as the action advances. */
  onProgress?: (p: Progress) => void;
}

export interface ActivitySpec<T> {
  /** The wire event whose `error` answers mean the command was refused. */
  origin: string;
  timeoutMs: number;
  signal?: AbortSignal | undefined;
  /** Sends the command. Called after the listeners are in place. */
  start(): void;
  /** Stops what the command started (on timeout or abort), e.g. a `player:move {cancel}`. */
  stop?(): void;
  /** Subscribes to the events that end or advance the action; returns the unsubscribers. */
  listen(finish: (outcome: T) => void): (() => void)[];
}

export function activity<T>(game: GameClient, spec: ActivitySpec<T>): Promise<T | Ended> {
  return new Promise((resolve) => {
    let settled = false;
    const offs: (() => void)[] = [];
    const finish = (outcome: T | Ended) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      spec.signal?.removeEventListener('abort', onAbort);
      for (const off of offs) off();
      resolve(outcome);
    };
    const stopAndFinish = (outcome: Ended) => {
      try {
        spec.stop?.();
      } catch {
        // Not connected: nothing to stop.
      }
      finish(outcome);
    };
    const onAbort = () => stopAndFinish({ status: 'aborted' });
    const timer = setTimeout(() => stopAndFinish({ status: 'timeout' }), spec.timeoutMs);
    if (spec.signal?.aborted) {
      clearTimeout(timer);
      resolve({ status: 'aborted' });
      return;
    }
    spec.signal?.addEventListener('abort', onAbort, { once: true });
    offs.push(
      game.on('error', (e) => {
        if (e.event === spec.origin)
          finish({ status: 'refused', error: { code: e.code, message: e.message } });
      }),
      game.on('close', () => finish({ status: 'disconnected' })),
    );
    offs.push(...spec.listen(finish));
    if (settled) return;
    try {
      spec.start();
    } catch {
      finish({ status: 'disconnected' });
    }
  });
}

/** Item id -> quantity held, from a `player:sync` inventory. */
export function countItems(
  inventory: ServerPayload<'player:sync'>['inventory'] | undefined,
): Map<string, number> {
  const counts = new Map<string, number>();
  for (const s of inventory ?? []) if (s) counts.set(s.itemId, (counts.get(s.itemId) ?? 0) + s.quantity);
  return counts;
}

/** What changed between two inventories: positive gained, negative lost, zero left out. */
export function itemDelta(before: Map<string, number>, after: Map<string, number>): Map<string, number> {
  const delta = new Map<string, number>();
  for (const id of new Set([...before.keys(), ...after.keys()])) {
    const d = (after.get(id) ?? 0) - (before.get(id) ?? 0);
    if (d !== 0) delta.set(id, d);
  }
  return delta;
}
