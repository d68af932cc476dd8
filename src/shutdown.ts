import type { Logger } from '../lib/logger.ts';

/**
 * Graceful shutdown: on the first SIGINT/SIGTERM run the steps in the given order (stop accepting,
 * flush, close), each under a time limit, then exit 0; exit 1 if a step fails or the whole thing
 * overruns.
 *
 * One Ctrl-C reaches the server several times: the terminal signals the whole foreground process
 * group (npm and node), and npm relays the signal to its child again, within milliseconds. So a
 * signal that arrives within `duplicateWindowMs` of the one that started the shutdown is that same
 * signal relayed and is ignored. Only a deliberate second signal after the window forces an exit,
 * and even then the save of what is in memory (`emergency`) is attempted first, under its own
 * deadline, before exiting 1.
 */

export interface ShutdownStep {
  name: string;
  run: () => Promise<void> | void;
}

export interface ShutdownOptions {
  logger: Logger;
  steps: () => readonly ShutdownStep[];
  /** Upper bound for all steps together. */
  timeoutMs?: number;
  exit?: (code: number) => void;
  signals?: readonly NodeJS.Signals[];
  /** Signals within this long after the first one are relays of it (npm, tsx, a supervisor): ignored. */
  duplicateWindowMs?: number;
  /** On a forced exit: save what is in memory, cut off after `emergencyTimeoutMs`. */
  emergency?: () => Promise<void> | void;
  emergencyTimeoutMs?: number;
  /** Monotonic milliseconds (tests). */
  now?: () => number;
}

export const DUPLICATE_SIGNAL_WINDOW_MS = 1500;

/** Resolves with `work`'s outcome, or 'timeout' after `ms` (the timer never keeps the process alive). */
async function withDeadline(work: Promise<void>, ms: number): Promise<'done' | 'timeout'> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), ms);
    timer.unref();
  });
  try {
    return await Promise.race([work.then(() => 'done' as const), timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

export function installShutdown(opts: ShutdownOptions): {
  shutdown: (reason: string) => Promise<number>;
  /** Remove the signal handlers (tests). */
  dispose: () => void;
} {
  const now = opts.now ?? (() => performance.now());
  const window = opts.duplicateWindowMs ?? DUPLICATE_SIGNAL_WINDOW_MS;
  const timeoutMs = opts.timeoutMs ?? 15_000;
  let exited = false;
  const exit = (code: number) => {
    if (exited) return;
    exited = true;
    opts.logger.flush();
    (opts.exit ?? ((c: number) => process.exit(c)))(code);
  };
  let running: Promise<number> | undefined;
  let startedAt = 0;
  let forcing = false;

  const shutdown = (reason: string): Promise<number> => {
    running ??= (async () => {
      startedAt = now();
      opts.logger.info({ reason }, 'shutting down');
      let code = 0;
      const work = (async () => {
        for (const step of opts.steps()) {
          try {
            await step.run();
            opts.logger.info({ step: step.name }, 'shutdown step done');
          } catch (err) {
            code = 1;
            opts.logger.error({ err, step: step.name }, 'shutdown step failed');
          }
        }
      })();
      if ((await withDeadline(work, timeoutMs)) === 'timeout') {
        opts.logger.error({ timeoutMs }, 'shutdown timed out');
        code = 1;
      }
      // A forced exit in progress decides the code and the moment.
      if (forcing) return 1;
      opts.logger.info({ code }, 'bye');
      exit(code);
      return code;
    })();
    return running;
  };

  const force = async (signal: NodeJS.Signals): Promise<void> => {
    forcing = true;
    const ms = opts.emergencyTimeoutMs ?? 5000;
    opts.logger.warn({ signal, deadlineMs: ms }, 'second signal: saving what is in memory, then exiting');
    if (opts.emergency) {
      const outcome = await withDeadline(
        Promise.resolve()
          .then(opts.emergency)
          .catch((err: unknown) => opts.logger.error({ err }, 'emergency save failed')),
        ms,
      );
      if (outcome === 'timeout') opts.logger.error({ deadlineMs: ms }, 'emergency save cut off');
      else opts.logger.info('emergency save done');
    }
    exit(1);
  };

  const onSignal = (signal: NodeJS.Signals) => {
    if (running === undefined) {
      void shutdown(signal);
      return;
    }
    if (forcing) return;
    const since = now() - startedAt;
    if (since < window) {
      opts.logger.info(
        { signal, sinceMs: Math.round(since) },
        'signal during shutdown: a relay of the first, ignored',
      );
      return;
    }
    void force(signal);
  };
  const signals = opts.signals ?? ['SIGINT', 'SIGTERM'];
  for (const signal of signals) process.on(signal, onSignal);
  return {
    shutdown,
    dispose: () => {
      for (const signal of signals) process.off(signal, onSignal);
    },
  };
}
