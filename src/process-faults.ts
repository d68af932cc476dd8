import type { Logger } from '../lib/logger.ts';

/**
 * A promise rejected with nobody to handle it ends a Node process by default. In a library (the
 * database driver's own background queries, for one) that would take the whole world down, with what
 * is not saved yet, for an error that concerns none of it: it is logged instead, and the server keeps
 * running. Every such log line is a bug to fix where the promise was made.
 */
export function logUnhandledRejections(logger: Logger): () => void {
  const onRejection = (reason: unknown) => {
    logger.error({ err: reason }, 'unhandled promise rejection (logged; the server keeps running)');
  };
  process.on('unhandledRejection', onRejection);
  return () => process.off('unhandledRejection', onRejection);
}
