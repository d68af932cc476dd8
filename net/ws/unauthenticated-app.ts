import type { ClientMessage } from '../protocol/index.ts';
import type { WsApp, WsConnection } from './types.ts';

/**
 * The WsApp used until the identity work lands: nobody can authenticate yet. Every event but
 * `authenticate` gets NOT_AUTHENTICATED (contract §1.2); `authenticate` (or `?authToken=`) is refused
 * with 4001; a socket that stays unauthenticated past the timeout is closed with 4001.
 */
export function createUnauthenticatedApp(opts: { authTimeoutMs: number }): WsApp {
  const timers = new Map<number, NodeJS.Timeout>();

  const refuse = (c: WsConnection) => {
    c.send('authResult', { success: false, error: 'authentication is not available yet' });
    c.close(4001, 'authentication failed');
  };

  return {
    onOpen(c) {
      if (c.query.get('authToken')) {
        refuse(c);
        return;
      }
      const timer = setTimeout(() => c.close(4001, 'authentication timed out'), opts.authTimeoutMs);
      timer.unref();
      timers.set(c.id, timer);
    },
    onMessage(c, m: ClientMessage) {
      if (m.event === 'authenticate') {
        refuse(c);
        return;
      }
      c.send('error', { code: 'NOT_AUTHENTICATED', message: 'authenticate first', event: m.event });
    },
    onClose(c) {
      clearTimeout(timers.get(c.id));
      timers.delete(c.id);
    },
  };
}
