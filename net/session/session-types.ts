import type { Command } from '../../ecs/core/commands.ts';
import type { Logger } from '../../lib/logger.ts';
import type { ServerMetrics } from '../../lib/metrics.ts';
import type { PersistencePort } from '../../persistence/port.ts';
import type { Authenticator } from '../auth/authenticator.ts';
import type { AccountCharacters } from '../auth/characters.ts';
import type { ClientPayload } from '../protocol/index.ts';
import type { WsConnection } from '../ws/types.ts';
import type { AdminGate, AuthAttemptLimiter } from './admin.ts';
import type { CharacterLanes } from './lanes.ts';
import type { LoginQueue } from './login-queue.ts';
import type { SessionRegistry } from './registry.ts';
import type { WorldLocks } from './world-locks.ts';

/**
 * What the session files share: the world and persistence sides a session talks to, the close codes,
 * one connection's session state, and the context the login and in-world handlers run in.
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

/** One connection's session. */
export interface Session {
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

/** A login that fails with a reason: the client gets it in `authResult`, then the close code. */
export class Refusal {
  constructor(
    readonly closeCode: number,
    readonly error: string,
  ) {}
}

export type AuthRequest = ClientPayload<'authenticate'>;

/** What the login and in-world handlers share with the app that owns the connections. */
export interface SessionContext {
  readonly deps: SessionAppDeps;
  readonly now: () => number;
  /** Sessions by connection id. */
  readonly sessions: ReadonlyMap<number, Session>;
  readonly lanes: CharacterLanes;
  /** The session's authenticate arrived: if it was waiting, one fewer against maxUnauthenticated. */
  authenticating(s: Session): void;
  /** Answer `authResult` with the error, then close with the code. */
  refuse(c: WsConnection, closeCode: number, error: string): void;
  /** End a joined session: leave the world (saved), let go of the hold, close its playerSessions row. */
  leave(
    characterId: string,
    s: Session,
    reason: 'logout' | 'disconnect' | 'takeover',
    code?: number,
  ): Promise<void>;
}
