import type { Command } from '../../ecs/commands.ts';
import type { PersistencePort } from '../../persistence/port.ts';
import type { Logger } from '../../src/logger.ts';
import type { Authenticator } from '../auth/authenticator.ts';
import type { AccountCharacters } from '../auth/characters.ts';
import { generateGuestName } from '../auth/names.ts';
import { HttpError } from '../http/types.ts';
import type { ClientMessage, ClientPayload } from '../protocol/index.ts';
import type { WsApp, WsConnection } from '../ws/types.ts';
import type { AdminGate, AuthAttemptLimiter } from './admin.ts';
import { translate } from './commands.ts';
import type { SessionRegistry } from './registry.ts';

/**
 * WebSocket sessions (contract §1.2): authenticate within the window, pick or create the character,
 * enter the world, and the takeover rule (one live connection per character: the old one leaves, is
 * saved, then closed with 4002 before the new one joins). After that, messages become commands.
 */

/** The world side of a session; the runtime implements it. */
export interface WorldGate {
  enqueue(cmd: Command): void;
  isInWorld(characterId: string): boolean;
  /** Queue `leave`, and resolve once the tick applied it and the character's logout save committed. */
  leaveAndSave(characterId: string, reason: 'logout' | 'disconnect' | 'takeover'): Promise<void>;
}

/** Login waits for every queued save of the character, so it never loads a stale state. */
export interface SaveWaiter {
  waitForPending(characterId: string): Promise<void>;
}

export const CLOSE_AUTH_FAILED = 4001;
export const CLOSE_TAKEN_OVER = 4002;
export const CLOSE_FORBIDDEN = 4003;

export interface SessionAppDeps {
  authenticator: Authenticator;
  characters: AccountCharacters;
  port: Pick<
    PersistencePort,
    'createAnonymousUser' | 'loadCharacter' | 'recordLogin' | 'recordLogout' | 'touchLogin'
  >;
  saves: SaveWaiter;
  world: WorldGate;
  registry: SessionRegistry;
  admin: AdminGate;
  /** The authentication window of /api/auth/*: bad tokens and anonymous sign-ups over the socket count too. */
  limiter: AuthAttemptLimiter;
  authTimeoutMs: number;
  logger: Pick<Logger, 'info' | 'warn' | 'error'>;
  /** Epoch milliseconds for chat timestamps. */
  now?: () => number;
}

interface Session {
  phase: 'waiting' | 'authenticating' | 'joined' | 'leaving' | 'closed';
  timer: NodeJS.Timeout | undefined;
  accountId?: string;
  characterId?: string;
  /** playerSessions row of this connection. */
  sessionRowId?: string;
}

class Refusal {
  constructor(
    readonly closeCode: number,
    readonly error: string,
  ) {}
}

type AuthRequest = ClientPayload<'authenticate'>;

export function createSessionApp(deps: SessionAppDeps): WsApp & { idle(): Promise<void> } {
  const { authenticator, characters, port, saves, world, registry, logger } = deps;
  const now = deps.now ?? Date.now;
  const sessions = new Map<number, Session>();
  // Per-character serialisation of login, takeover and logout: the character never exists twice.
  const lanes = new Map<string, Promise<void>>();
  const inflight = new Set<Promise<void>>();

  const track = (p: Promise<void>) => {
    inflight.add(p);
    p.finally(() => inflight.delete(p));
  };

  const inLane = (characterId: string, work: () => Promise<void>): Promise<void> => {
    const prev = lanes.get(characterId) ?? Promise.resolve();
    const next = prev.then(work, work);
    const tail = next.catch(() => {});
    lanes.set(characterId, tail);
    tail.then(() => {
      if (lanes.get(characterId) === tail) lanes.delete(characterId);
    });
    return next;
  };

  const refuse = (c: WsConnection, closeCode: number, error: string) => {
    if (c.closed) return;
    c.send('authResult', { success: false, error });
    c.close(closeCode, error);
  };

  /** Ends a joined session: leave the world (saved), close its playerSessions row. */
  const leave = (characterId: string, s: Session, reason: 'disconnect' | 'takeover') =>
    world.leaveAndSave(characterId, reason).then(async () => {
      if (s.sessionRowId !== undefined) await port.recordLogout(s.sessionRowId);
    });

  async function account(
    c: WsConnection,
    req: AuthRequest,
  ): Promise<{ accountId: string; anonymous: boolean }> {
    const { limiter } = deps;
    if (limiter.isAuthBlocked(c.ip)) throw new Refusal(CLOSE_AUTH_FAILED, 'too many authentication attempts');
    if (req.authToken === undefined) {
      if (!authenticator.anonymousMode) throw new Refusal(CLOSE_AUTH_FAILED, 'authToken is required');
      // Like POST /api/auth/anonymous: each new temporary account uses one attempt of the address.
      limiter.countAuthFailure(c.ip);
      const user = await port.createAnonymousUser(generateGuestName());
      return { accountId: user.id, anonymous: true };
    }
    const outcome = await authenticator.authenticate(req.authToken);
    if (outcome.ok) return outcome.auth;
    if (outcome.reason === 'banned') throw new Refusal(CLOSE_FORBIDDEN, 'account is banned');
    limiter.countAuthFailure(c.ip);
    throw new Refusal(CLOSE_AUTH_FAILED, 'invalid token');
  }

  async function pickCharacter(accountId: string, req: AuthRequest): Promise<string> {
    try {
      const picked = await characters.selectForLogin(accountId, {
        characterId: req.characterId,
        name: req.name,
      });
      if (picked.ok) return picked.characterId;
      throw new Refusal(CLOSE_FORBIDDEN, 'character not found on this account');
    } catch (err) {
      // A refused name (rules, taken) is a failed login with the reason, not a crash.
      if (err instanceof HttpError) throw new Refusal(CLOSE_AUTH_FAILED, err.detail);
      throw err;
    }
  }

  async function login(c: WsConnection, s: Session, req: AuthRequest): Promise<void> {
    const acct = await account(c, req);
    const characterId = await pickCharacter(acct.accountId, req);
    const issued = await authenticator.tokens.issue(acct.accountId, acct.anonymous);
    if (c.closed) return;
    await inLane(characterId, async () => {
      if (c.closed) return;
      const old = registry.connection(characterId);
      const oldSession = old === undefined ? undefined : sessions.get(old.id);
      if (old !== undefined && old !== c && oldSession !== undefined) {
        // Takeover: the old session stops taking commands, leaves, is saved, then is closed with 4002.
        oldSession.phase = 'leaving';
        await leave(characterId, oldSession, 'takeover');
        registry.unbind(characterId, old);
        old.close(CLOSE_TAKEN_OVER, 'taken over by a new connection');
      } else if (world.isInWorld(characterId)) {
        await world.leaveAndSave(characterId, 'takeover');
      }
      await saves.waitForPending(characterId);
      const state = await port.loadCharacter(characterId);
      if (state === null) throw new Refusal(CLOSE_AUTH_FAILED, 'character not found');
      if (c.closed) return;
      const sessionRowId = await port.recordLogin(characterId, acct.accountId);
      await port.touchLogin(characterId);
      if (c.closed) {
        await port.recordLogout(sessionRowId);
        return;
      }
      // From here on nothing awaits: bind, answer and join happen in one turn of the event loop.
      clearTimeout(s.timer);
      Object.assign(s, { phase: 'joined', accountId: acct.accountId, characterId, sessionRowId });
      registry.bind(characterId, c);
      c.send('authResult', {
        success: true,
        accountId: acct.accountId,
        characterId,
        anonymous: acct.anonymous,
        sessionToken: issued.token,
      });
      world.enqueue({ type: 'join', characterId, accountId: acct.accountId, state, origin: 'authenticate' });
    });
  }

  function startLogin(c: WsConnection, s: Session, req: AuthRequest): void {
    s.phase = 'authenticating';
    const p = login(c, s, req).catch((err: unknown) => {
      if (err instanceof Refusal) return refuse(c, err.closeCode, err.error);
      logger.error({ err, connection: c.id }, 'websocket login failed');
      refuse(c, CLOSE_AUTH_FAILED, 'login failed');
    });
    track(p);
  }

  function onAuthenticated(c: WsConnection, s: Session, m: ClientMessage): void {
    const characterId = s.characterId as string;
    const t = translate(characterId, m);
    if (t.kind === 'command') {
      world.enqueue(t.command);
    } else if (t.kind === 'error') {
      c.send('error', { code: t.code, message: t.message, event: m.event });
    } else {
      const verdict = deps.admin.check(c.ip, t.code);
      if (verdict !== 'granted') {
        const message = verdict === 'blocked' ? 'too many failed attempts; try again later' : 'not allowed';
        c.send('error', { code: 'FORBIDDEN', message, event: m.event });
        return;
      }
      world.enqueue({ type: 'setAdmin', characterId, origin: m.event });
      c.send('chat:message', {
        fromId: 'system',
        fromName: 'Server',
        message: 'Admin commands enabled.',
        channel: 'system',
        timestamp: now(),
      });
    }
  }

  return {
    onOpen(c) {
      const s: Session = { phase: 'waiting', timer: undefined };
      sessions.set(c.id, s);
      c.data['session'] = s;
      // The window is the client's: once its authenticate arrived in time, a slow database does not fail it.
      s.timer = setTimeout(() => {
        if (s.phase === 'waiting') refuse(c, CLOSE_AUTH_FAILED, 'authentication timed out');
      }, deps.authTimeoutMs);
      s.timer.unref();
      const token = c.query.get('authToken');
      if (token !== null && token !== '') {
        const characterId = c.query.get('characterId') ?? undefined;
        const name = c.query.get('name') ?? undefined;
        startLogin(c, s, {
          authToken: token,
          ...(characterId ? { characterId } : {}),
          ...(name ? { name } : {}),
        });
      }
    },

    onMessage(c, m) {
      const s = sessions.get(c.id);
      if (s === undefined) return;
      switch (s.phase) {
        case 'joined':
          onAuthenticated(c, s, m);
          return;
        case 'waiting':
          if (m.event === 'authenticate') {
            startLogin(c, s, m.payload);
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

    onClose(c) {
      const s = sessions.get(c.id);
      sessions.delete(c.id);
      if (s === undefined) return;
      clearTimeout(s.timer);
      const wasJoined = s.phase === 'joined';
      s.phase = 'closed';
      const characterId = s.characterId;
      if (!wasJoined || characterId === undefined || !registry.unbind(characterId, c)) return;
      const p = inLane(characterId, () => leave(characterId, s, 'disconnect')).catch((err: unknown) =>
        logger.error({ err, characterId }, 'logout after disconnect failed'),
      );
      track(p);
    },

    /** Resolves when no login or logout is in flight (tests, shutdown). */
    async idle() {
      while (inflight.size > 0) await Promise.allSettled([...inflight]);
    },
  };
}
