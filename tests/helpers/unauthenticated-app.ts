import type { ClientMessage } from '../../net/protocol/index.ts';
import type { WsApp, WsConnection } from '../../net/ws/types.ts';

/**
 * A WsApp for transport tests that need no identity: nobody can log in. Every event but `authenticate`
 * gets NOT_AUTHENTICATED; `authenticate` (or `?authToken=`) is refused with 4001; a socket that stays
 * unauthenticated past the timeout is closed with 4001.
 */
export function createUnauthenticatedApp(opts: { authTimeoutMs: number }): WsApp {
  const timers = new Map<number, NodeJS.Timeout>();

  const refuse = (c: WsConnection) => {
    c.send('authResult', { success: false, error: 'this test server accepts no login' });
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
