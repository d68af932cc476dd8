import type { Logger } from './logger.ts';

/**
 * Graceful shutdown: on the first SIGINT/SIGTERM run the steps in the given order (stop accepting,
 * flush, close), each under a time limit, then exit 0; exit 1 if a step fails or the whole thing
 * overruns. A second signal exits at once.
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
}

export function installShutdown(opts: ShutdownOptions): {
  shutdown: (reason: string) => Promise<number>;
  /** Remove the signal handlers (tests). */
  dispose: () => void;
} {
  const exit = opts.exit ?? ((code: number) => process.exit(code));
  let running: Promise<number> | undefined;

  const shutdown = (reason: string): Promise<number> => {
    running ??= (async () => {
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
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<'timeout'>((resolve) => {
        timer = setTimeout(() => resolve('timeout'), opts.timeoutMs ?? 15_000);
        timer.unref();
      });
      if ((await Promise.race([work, timedOut])) === 'timeout') {
        opts.logger.error({ timeoutMs: opts.timeoutMs ?? 15_000 }, 'shutdown timed out');
        code = 1;
      }
      clearTimeout(timer);
      opts.logger.info({ code }, 'bye');
      opts.logger.flush();
      exit(code);
      return code;
    })();
    return running;
  };

  const onSignal = (signal: NodeJS.Signals) => {
    if (running !== undefined) {
      opts.logger.warn({ signal }, 'second signal: exiting now');
      opts.logger.flush();
      exit(1);
      return;
    }
    void shutdown(signal);
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
