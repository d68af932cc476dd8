import type { WsApp, WsConnection } from '../ws/types.ts';
import { onJoinedMessage } from './in-world.ts';
import { CharacterLanes } from './lanes.ts';
import { Logins } from './login.ts';
import {
  CLOSE_AUTH_FAILED,
  CLOSE_TRY_AGAIN_LATER,
  type Session,
  type SessionAppDeps,
  type SessionContext,
} from './session-types.ts';

export {
  CLOSE_AUTH_FAILED,
  CLOSE_FORBIDDEN,
  CLOSE_TAKEN_OVER,
  CLOSE_TRY_AGAIN_LATER,
  type SaveWaiter,
  type SessionAgents,
  type SessionAppDeps,
  type WorldGate,
} from './session-types.ts';

/**
 * WebSocket sessions (contract §1.2): a connection authenticates within the window (login.ts: the account,
 * the character, the takeover rule, entering the world), then its messages become commands (in-world.ts);
 * a close or logout leaves the world, saved. Here: the connections and their phases, the limit on those
 * still waiting to authenticate, and what the two handlers share.
 */
export function createSessionApp(deps: SessionAppDeps): WsApp & { idle(): Promise<void> } {
  const { world, registry, logger } = deps;
  const { limitRefusals } = deps.metrics;
  const now = deps.now ?? Date.now;
  const sessions = new Map<number, Session>();
  const maxUnauthenticated = deps.maxUnauthenticated ?? Number.POSITIVE_INFINITY;
  /**
   * Sessions in phase waiting: connected, no authenticate yet (what WS_MAX_UNAUTHENTICATED bounds). One
   * whose authenticate arrived is in the login queue, which has its own bound: a storm of new players
   * (10,000 signing up within a minute) waits there, told its place, instead of being closed with 1013.
   */
  let waiting = 0;
  const lanes = new CharacterLanes();

  const ctx: SessionContext = {
    deps,
    now,
    sessions,
    lanes,
    authenticating(s) {
      if (s.phase === 'waiting') waiting--;
    },
    refuse(c, closeCode, error) {
      if (c.closed) return;
      c.send('authResult', { success: false, error });
      c.close(closeCode, error);
    },
    leave: (characterId, s, reason, code) =>
      world.leaveAndSave(characterId, reason).then(async () => {
        // Saved: another world may have the character now (a takeover stays in this world).
        if (reason !== 'takeover') await deps.worldLocks?.release(characterId);
        if (s.sessionRowId !== undefined) await deps.port.recordLogout(s.sessionRowId);
        const sessionSeconds = s.joinedAt === undefined ? 0 : Math.round((now() - s.joinedAt) / 1000);
        logger.info(
          {
            accountId: s.accountId,
            characterId,
            reason,
            ...(code !== undefined ? { code } : {}),
            sessionSeconds,
          },
          'logout',
        );
      }),
  };
  const logins = new Logins(ctx);

  /** A token in the connection's URL logs in at once, as an `authenticate` with it would. */
  const loginFromUrl = (c: WsConnection, s: Session) => {
    const token = c.query.get('authToken');
    if (token === null || token === '') return;
    const characterId = c.query.get('characterId') ?? undefined;
    const name = c.query.get('name') ?? undefined;
    logins.start(c, s, {
      authToken: token,
      ...(characterId ? { characterId } : {}),
      ...(name ? { name } : {}),
    });
  };

  return {
    onOpen(c) {
      if (waiting >= maxUnauthenticated) {
        limitRefusals.inc({ limit: 'ws_unauthenticated' });
        logger.warn({ ip: c.ip, connection: c.id, limit: 'ws_unauthenticated' }, 'limit reached');
        c.close(CLOSE_TRY_AGAIN_LATER, 'too many connections waiting to authenticate; try again later');
        return;
      }
      const s: Session = { phase: 'waiting', timer: undefined };
      waiting++;
      sessions.set(c.id, s);
      c.data['session'] = s;
      // The window is the client's: once its authenticate arrived in time, a slow database does not fail it.
      s.timer = setTimeout(() => {
        if (s.phase === 'waiting') ctx.refuse(c, CLOSE_AUTH_FAILED, 'authentication timed out');
      }, deps.authTimeoutMs);
      s.timer.unref();
      loginFromUrl(c, s);
    },

    onMessage(c, m) {
      const s = sessions.get(c.id);
      if (s === undefined) return;
      switch (s.phase) {
        case 'joined':
          onJoinedMessage(ctx, c, s, m);
          return;
        case 'waiting':
          if (m.event === 'authenticate') {
            logins.start(c, s, m.payload);
            return;
          }
          break;
        case 'authenticating':
          if (m.event === 'authenticate') {
            c.send('error', { code: 'BUSY', message: 'authentication in progress', event: m.event });
            return;
          }
          break;
        default:
          return; // leaving or closed: nothing more reaches the world
      }
      c.send('error', { code: 'NOT_AUTHENTICATED', message: 'authenticate first', event: m.event });
    },

    onClose(c, code) {
      const s = sessions.get(c.id);
      sessions.delete(c.id);
      if (s === undefined) return;
      clearTimeout(s.timer);
      if (s.phase === 'waiting') waiting--;
      const wasJoined = s.phase === 'joined';
      s.phase = 'closed';
      const characterId = s.characterId;
      if (!wasJoined || characterId === undefined || !registry.unbind(characterId, c)) return;
      const p = lanes
        .run(characterId, () => ctx.leave(characterId, s, 'disconnect', code))
        .catch((err: unknown) => logger.error({ err, characterId }, 'logout after disconnect failed'));
      lanes.track(p);
    },

    /** Resolves when no login or logout is in flight (tests, shutdown). */
    idle: () => lanes.idle(),
  };
}
