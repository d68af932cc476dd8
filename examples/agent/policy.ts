import type { GameClient, ServerEventName, ServerPayload } from '../../sdk/src/index.ts';

/**
 * The example agent's small fixed knowledge and helpers: what it makes from what it gathers (recipes
 * without a station, with the tools of the starter kit), its counters, and abortable waits.
 */

export interface Recipe {
  /** The input it holds. */
  from: string;
  /** The `skill:make` id: the output item. */
  recipeId: string;
  /** Tools the recipe needs in the inventory. */
  tools: string[];
}

/** Birch logs become arrow shafts (fletching, with a knife): stackable, so a batch fits one slot. */
export const RECIPES: readonly Recipe[] = [{ from: 'birch_logs', recipeId: 'arrow_shaft', tools: ['knife'] }];

export interface Stats {
  /** Rounds of its loop. */
  steps: number;
  /** Walks made. */
  moves: number;
  /** Items gathered. */
  gathered: number;
  /** Items made (processing runs). */
  made: number;
  /** Inventory slots deposited in the bank. */
  deposits: number;
  /** Owner messages answered. */
  replies: number;
  tradesAccepted: number;
  /** Xp gained while it played, all skills. */
  xp: number;
  /** Requests to the agent HTTP API once connected (to find places beyond view; never a polling loop). */
  apiCalls: number;
}

/** Waits `ms`, or less when `signal` aborts first; never rejects. */
export function sleepUnless(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

/** Waits for the next `event` matching `pred`, at most `ms`, or less when `signal` aborts; never rejects. */
export function eventUnless<E extends ServerEventName>(
  client: GameClient,
  event: E,
  ms: number,
  pred: (p: ServerPayload<E>) => boolean,
  signal: AbortSignal,
): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      off();
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    const off = client.on(event, (p) => {
      if (pred(p)) done();
    });
    signal.addEventListener('abort', done, { once: true });
  });
}
