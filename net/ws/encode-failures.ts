import type { Counter } from 'prom-client';

/**
 * What happens to a payload that cannot be encoded for a connection (net/protocol encodeOrDrop): it is
 * dropped for that connection, counted in game_encode_failures_total{event}, and logged at error with the
 * event, the receiver and the error's name and message, never the payload (it may hold anything). One
 * line a minute per event: a payload sent every tick would otherwise flood the log; the metric counts all.
 */

export interface EncodeFailureLogger {
  error(obj: object, msg?: string): void;
}

/** Who the dropped payload was for (a connection id, a character id, or both). */
export type EncodeReceiver = { connection?: number; characterId?: string };

export type EncodeFailureReporter = (event: string, err: unknown, to: EncodeReceiver) => void;

const LOG_EVERY_MS = 60_000;

export function encodeFailureReporter(
  logger: EncodeFailureLogger,
  counter: Pick<Counter<'event'>, 'inc'>,
  now: () => number = Date.now,
): EncodeFailureReporter {
  const lastLogged = new Map<string, number>();
  return (event, err, to) => {
    counter.inc({ event });
    const t = now();
    const last = lastLogged.get(event);
    if (last !== undefined && t - last < LOG_EVERY_MS) return;
    lastLogged.set(event, t);
    const e = err instanceof Error ? err : new Error(String(err));
    logger.error(
      { event, ...to, error: `${e.name}: ${e.message.slice(0, 200)}` },
      'payload dropped for a connection: it cannot be encoded',
    );
  };
}
