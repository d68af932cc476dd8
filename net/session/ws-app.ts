import { randomUUID } from 'node:crypto';
import type { CharacterState } from '../../ecs/core/character-state.ts';
import type { Command } from '../../ecs/core/commands.ts';
import type { Logger } from '../../lib/logger.ts';
import type { ServerMetrics } from '../../lib/metrics.ts';
import type { PersistencePort } from '../../persistence/port.ts';
import type { Authenticator } from '../auth/authenticator.ts';
import type { AccountCharacters } from '../auth/characters.ts';
import { generateGuestName } from '../auth/names.ts';
import { HttpError } from '../http/types.ts';
import { type ClientMessage, type ClientPayload, translate } from '../protocol/index.ts';
import type { WsApp, WsConnection } from '../ws/types.ts';
import type { AdminGate, AuthAttemptLimiter } from './admin.ts';
import { LoginBatches } from './login-batches.ts';
import { LoginQueue } from './login-queue.ts';
import type { SessionRegistry } from './registry.ts';
import type { WorldLocks } from './world-locks.ts';

/**
 * WebSocket sessions (contract §1.2): authenticate within the window, pick or create the character,
 * enter the world, and the takeover rule (one live connection per character: the old one leaves, is
 * saved, then closed with 4002 before the new one joins). After that, messages become commands.
 */

/** The world side of a session; the runtime implements it. */
export interface WorldGate {
  /** A command of the server's own (join, admin rights): never refused. */
  enqueue(cmd: Command): void;
  /**
   * A command the player sent: false, and nothing queued, when the player's backlog is full (the tick
   * takes a bounded number per player; net/session/inbound.ts).
   */
  offer(cmd: Command): boolean;
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
/** RFC 6455's "try again later": too many sockets waiting to authenticate, or the login queue is full. */
export const CLOSE_TRY_AGAIN_LATER = 1013;

export interface SessionAppDeps {
  authenticator: Authenticator;
  characters: AccountCharacters;
  port: Pick<PersistencePort, 'recordLogout' | 'createAnonymousLogins' | 'loadCharacters' | 'recordLogins'>;
  /** Bounds and order of concurrent logins (a default queue when absent). */
  queue?: LoginQueue;
  saves: SaveWaiter;
  world: WorldGate;
  registry: SessionRegistry;
  admin: AdminGate;
  /**
   * The authentication window of /api/auth/*: bad tokens and anonymous sign-ups over the socket count
   * too, and are refused once it is used up; a valid token is never refused by it.
   */
  limiter: AuthAttemptLimiter;
  authTimeoutMs: number;
  /** Connections that have not sent authenticate yet, server-wide; past it a new one is closed with 1013. */
  maxUnauthenticated?: number;
  logger: Pick<Logger, 'info' | 'warn' | 'error'>;
  metrics: Pick<ServerMetrics, 'limitRefusals'>;
  /** Epoch milliseconds for chat timestamps. */
  now?: () => number;
  /** The AI agents (net/agents): told of each join, and given `agent:progress` reports. */
  agents?: SessionAgents;
  /**
   * Several worlds (docs/scaling.md): a login takes the character's hold first and is refused while
   * another world holds it; the hold is let go once the character left and was saved.
   */
  worldLocks?: Pick<WorldLocks, 'claim' | 'release'>;
}

/** What sessions tell the AI-agent service. */
export interface SessionAgents {
  joined(characterId: string): void;
  progress(characterId: string, progress: number, note: string | undefined): void;
}

interface Session {
  phase: 'waiting' | 'authenticating' | 'joined' | 'leaving' | 'closed';
  timer: NodeJS.Timeout | undefined;
  accountId?: string;
  characterId?: string;
  /** playerSessions row of this connection. */
  sessionRowId?: string;
  /** Epoch ms when the character entered the world (for the logout line's session length). */
  joinedAt?: number;
  /** This session passed `/admin <code>`. */
  admin?: boolean;
  /** When a refusal for a full backlog was last logged (epoch ms). */
  backlogLoggedAt?: number;
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
  // Per-character serialisation of login, takeover and logout: the character never exists twice.
  const lanes = new Map<string, Promise<void>>();
  const inflight = new Set<Promise<void>>();
  const batches = new LoginBatches(port);
  const queue = deps.queue ?? new LoginQueue();

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
  const leave = (
    characterId: string,
    s: Session,
    reason: 'logout' | 'disconnect' | 'takeover',
    code?: number,
  ) =>
    world.leaveAndSave(characterId, reason).then(async () => {
      // Saved: another world may have the character now (a takeover stays in this world).
      if (reason !== 'takeover') await deps.worldLocks?.release(characterId);
      if (s.sessionRowId !== undefined) await port.recordLogout(s.sessionRowId);
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
    });

  /** A new temporary account with its first character, written by the anonymous-login batch. */
  async function anonymousAccount(req: AuthRequest): Promise<{ accountId: string; characterId: string }> {
    // A new account has no characters: asking for one by id can only fail.
    if (req.characterId !== undefined)
      throw new Refusal(CLOSE_FORBIDDEN, 'character not found on this account');
    const accountId = randomUUID();
    for (let attempt = 0; ; attempt++) {
      let character: CharacterState;
      try {
        character = characters.newForAnonymous(accountId, req.name);
      } catch (err) {
        if (err instanceof HttpError) throw new Refusal(CLOSE_AUTH_FAILED, err.detail);
        throw err;
      }
      if (await batches.createAnonymous({ userName: generateGuestName(), character }))
        return { accountId, characterId: character.id };
      if (req.name !== undefined) throw new Refusal(CLOSE_AUTH_FAILED, `The name "${req.name}" is taken`);
      if (attempt >= 20) throw new Error('no free generated character name after 20 attempts');
    }
  }

  async function account(
    c: WsConnection,
    req: AuthRequest,
  ): Promise<{ accountId: string; anonymous: boolean; characterId?: string }> {
    const { limiter } = deps;
    /** Counts one attempt of the address, or refuses when its window is used up. */
    const attempt = () => {
      if (limiter.isAuthBlocked(c.ip)) {
        limitRefusals.inc({ limit: 'auth_attempts' });
        logger.warn({ ip: c.ip, connection: c.id, limit: 'auth_attempts' }, 'limit reached');
        throw new Refusal(CLOSE_AUTH_FAILED, 'too many authentication attempts');
      }
      limiter.countAuthFailure(c.ip);
    };
    if (req.authToken === undefined) {
      if (!authenticator.anonymousMode) throw new Refusal(CLOSE_AUTH_FAILED, 'authToken is required');
      // Like POST /api/auth/anonymous: each new temporary account uses one attempt of the address.
      attempt();
      return { ...(await anonymousAccount(req)), anonymous: true };
    }
    // A valid token is never refused by the window: ten sign-ups from one address (a household, a
    // school, a NAT) must not lock out the accounts they made. Only failed checks count.
    const outcome = await authenticator.authenticate(req.authToken);
    if (outcome.ok) return outcome.auth;
    if (outcome.reason === 'banned') throw new Refusal(CLOSE_FORBIDDEN, 'account is banned');
    attempt();
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
    const characterId = acct.characterId ?? (await pickCharacter(acct.accountId, req));
    const issued = await authenticator.tokens.issue(acct.accountId, acct.anonymous);
    if (c.closed) return;
    await inLane(characterId, async () => {
      if (c.closed) return;
      const old = registry.connection(characterId);
      const oldSession = old === undefined ? undefined : sessions.get(old.id);
      if (old !== undefined && old !== c && oldSession !== undefined) {
        // Takeover: the old session stops taking commands, leaves, is saved, then is closed with 4002.
        oldSession.phase = 'leaving';
        logger.info(
          { characterId, accountId: acct.accountId, ip: c.ip, oldConnection: old.id, connection: c.id },
          'takeover',
        );
        try {
          await leave(characterId, oldSession, 'takeover');
        } finally {
          // Even when the save failed the old session is over: it must never keep a character it left.
          registry.unbind(characterId, old);
          old.close(CLOSE_TAKEN_OVER, 'taken over by a new connection');
        }
      } else if (world.isInWorld(characterId)) {
        await world.leaveAndSave(characterId, 'takeover');
      }
      await saves.waitForPending(characterId);
      const locks = deps.worldLocks;
      if (locks) {
        // Before loading: once held here, no other world writes the character.
        const held = await locks.claim(characterId);
        if (!held.ok) {
          throw new Refusal(
            CLOSE_AUTH_FAILED,
            held.heldBy === undefined
              ? 'this character is in another world: log out there first'
              : `this character is in world ${held.heldBy}: log out there first`,
          );
        }
      }
      const giveBack = async () => {
        if (locks && !registry.connection(characterId)) await locks.release(characterId);
      };
      const state = await batches.loadCharacter(characterId);
      if (state === null) {
        await giveBack();
        throw new Refusal(CLOSE_AUTH_FAILED, 'character not found');
      }
      if (c.closed) return giveBack();
      const sessionRowId = await batches.recordLogin(characterId, acct.accountId);
      if (sessionRowId === null) {
        await giveBack();
        throw new Refusal(CLOSE_AUTH_FAILED, 'character not found');
      }
      if (c.closed) {
        await port.recordLogout(sessionRowId);
        return giveBack();
      }
      // From here on nothing awaits: bind, answer and join happen in one turn of the event loop.
      clearTimeout(s.timer);
      Object.assign(s, {
        phase: 'joined',
        accountId: acct.accountId,
        characterId,
        sessionRowId,
        joinedAt: now(),
      });
      registry.bind(characterId, c);
      c.send('authResult', {
        success: true,
        accountId: acct.accountId,
        characterId,
        anonymous: acct.anonymous,
        sessionToken: issued.token,
      });
      world.enqueue({ type: 'join', characterId, accountId: acct.accountId, state, origin: 'authenticate' });
      deps.agents?.joined(characterId);
      logger.info(
        {
          accountId: acct.accountId,
          characterId,
          ip: c.ip,
          encoding: c.encoding,
          anonymous: acct.anonymous,
          connection: c.id,
        },
        'login',
      );
    });
  }

  function startLogin(c: WsConnection, s: Session, req: AuthRequest): void {
    if (s.phase === 'waiting') waiting--;
    s.phase = 'authenticating';
    // Through the login queue: in arrival order, a bounded number at once, the rest told their place.
    const p = queue.submit({
      run: () =>
        login(c, s, req).catch((err: unknown) => {
          if (err instanceof Refusal) {
            logger.info(
              { ip: c.ip, connection: c.id, code: err.closeCode, error: err.error },
              'login refused',
            );
            return refuse(c, err.closeCode, err.error);
          }
          logger.error({ err, connection: c.id }, 'websocket login failed');
          refuse(c, CLOSE_AUTH_FAILED, 'login failed');
        }),
      report: (position) => {
        if (!c.closed) c.send('loginQueue', { position });
      },
      cancelled: () => c.closed,
    });
    if (p === 'full') {
      refuse(c, CLOSE_TRY_AGAIN_LATER, 'the login queue is full: try again later');
      return;
    }
    track(p);
  }

  /** The player has a full backlog of commands waiting for the tick: this one is refused, not queued. */
  function refuseBacklog(c: WsConnection, s: Session, event: string): void {
    limitRefusals.inc({ limit: 'ws_backlog' });
    // Once a minute per connection: a flood refuses hundreds of commands a second.
    const t = now();
    if (s.backlogLoggedAt === undefined || t - s.backlogLoggedAt >= 60_000) {
      s.backlogLoggedAt = t;
      logger.warn({ ip: c.ip, characterId: s.characterId, limit: 'ws_backlog', event }, 'limit reached');
    }
    c.send('error', {
      code: 'RATE_LIMITED',
      message: 'too many commands waiting for the next ticks: this one was not applied',
      event,
    });
  }

  /** `player:logout`: nothing more reaches the world; leave, saved, then close the socket with 1000. */
  function logout(c: WsConnection, s: Session, characterId: string): void {
    s.phase = 'leaving';
    const p = inLane(characterId, () => leave(characterId, s, 'logout'))
      .catch((err: unknown) => logger.error({ err, characterId }, 'logout failed'))
      .finally(() => {
        registry.unbind(characterId, c);
        if (!c.closed) c.close(1000, 'logged out');
      });
    track(p);
  }

  function onAuthenticated(c: WsConnection, s: Session, m: ClientMessage): void {
    const characterId = s.characterId as string;
    const t = translate(characterId, m);
    if (t.kind === 'command') {
      if (!world.offer(t.command)) {
        refuseBacklog(c, s, m.event);
        return;
      }
      // The intent as the admin sent it; its outcome is the system chat line the simulation answers.
      if (t.command.type === 'chatCommand' && s.admin === true) {
        logger.info(
          { accountId: s.accountId, characterId, command: t.command.name, args: t.command.args },
          'admin command',
        );
      }
    } else if (t.kind === 'error') {
      c.send('error', { code: t.code, message: t.message, event: m.event });
    } else if (t.kind === 'agentProgress') {
      deps.agents?.progress(characterId, t.progress, t.note);
    } else if (t.kind === 'logout') {
      logout(c, s, characterId);
    } else {
      const verdict = deps.admin.check(c.ip, t.code);
      if (verdict === 'blocked') {
        limitRefusals.inc({ limit: 'auth_attempts' });
        logger.warn({ ip: c.ip, characterId, limit: 'auth_attempts' }, 'limit reached');
      } else if (verdict !== 'granted') {
        logger.warn({ ip: c.ip, accountId: s.accountId, characterId, verdict }, 'admin code refused');
      }
      if (verdict !== 'granted') {
        const message = verdict === 'blocked' ? 'too many failed attempts; try again later' : 'not allowed';
        c.send('error', { code: 'FORBIDDEN', message, event: m.event });
        return;
      }
      s.admin = true;
      logger.info({ ip: c.ip, accountId: s.accountId, characterId }, 'admin elevation');
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
      const p = inLane(characterId, () => leave(characterId, s, 'disconnect', code)).catch((err: unknown) =>
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
