import { randomUUID } from 'node:crypto';
import type { CharacterState } from '../../ecs/core/character-state.ts';
import { generateGuestName } from '../auth/names.ts';
import { HttpError } from '../http/types.ts';
import type { WsConnection } from '../ws/types.ts';
import { LoginBatches } from './login-batches.ts';
import { LoginQueue } from './login-queue.ts';
import {
  type AuthRequest,
  CLOSE_AUTH_FAILED,
  CLOSE_FORBIDDEN,
  CLOSE_TAKEN_OVER,
  CLOSE_TRY_AGAIN_LATER,
  Refusal,
  type Session,
  type SessionContext,
} from './session-types.ts';

/**
 * Logging in over the socket (contract §1.2): the account (a token, or a new temporary account), the
 * character, then in the character's lane the takeover rule (one live connection per character: the
 * old one leaves, is saved, then closed with 4002 before the new one joins), the hold of several worlds,
 * the load, and entering the world. Logins go through the login queue, in arrival order.
 */
export class Logins {
  private readonly batches: LoginBatches;
  private readonly queue: LoginQueue;

  constructor(private readonly ctx: SessionContext) {
    this.batches = new LoginBatches(ctx.deps.port);
    this.queue = ctx.deps.queue ?? new LoginQueue();
  }

  /** `authenticate` (or a token in the URL): the session is authenticating until it joins or is refused. */
  start(c: WsConnection, s: Session, req: AuthRequest): void {
    const { logger } = this.ctx.deps;
    this.ctx.authenticating(s);
    s.phase = 'authenticating';
    // Through the login queue: in arrival order, a bounded number at once, the rest told their place.
    const p = this.queue.submit({
      run: () =>
        this.login(c, s, req).catch((err: unknown) => {
          if (err instanceof Refusal) {
            logger.info(
              { ip: c.ip, connection: c.id, code: err.closeCode, error: err.error },
              'login refused',
            );
            return this.ctx.refuse(c, err.closeCode, err.error);
          }
          logger.error({ err, connection: c.id }, 'websocket login failed');
          this.ctx.refuse(c, CLOSE_AUTH_FAILED, 'login failed');
        }),
      report: (position) => {
        if (!c.closed) c.send('loginQueue', { position });
      },
      cancelled: () => c.closed,
    });
    if (p === 'full') {
      this.ctx.refuse(c, CLOSE_TRY_AGAIN_LATER, 'the login queue is full: try again later');
      return;
    }
    this.ctx.lanes.track(p);
  }

  private async login(c: WsConnection, s: Session, req: AuthRequest): Promise<void> {
    const acct = await this.account(c, req);
    const characterId = acct.characterId ?? (await this.pickCharacter(acct.accountId, req));
    const issued = await this.ctx.deps.authenticator.tokens.issue(acct.accountId, acct.anonymous);
    if (c.closed) return;
    await this.ctx.lanes.run(characterId, async () => {
      if (c.closed) return;
      await this.takeOver(c, characterId, acct.accountId);
      const loaded = await this.load(c, characterId, acct.accountId);
      if (loaded === null) return;
      this.enter(c, s, { ...acct, characterId, ...loaded, sessionToken: issued.token });
    });
  }

  /** The character is in this world already: its old session (or a leftover) leaves and is saved first. */
  private async takeOver(c: WsConnection, characterId: string, accountId: string): Promise<void> {
    const { registry, world, logger, saves } = this.ctx.deps;
    const old = registry.connection(characterId);
    const oldSession = old === undefined ? undefined : this.ctx.sessions.get(old.id);
    if (old !== undefined && old !== c && oldSession !== undefined) {
      // Takeover: the old session stops taking commands, leaves, is saved, then is closed with 4002.
      oldSession.phase = 'leaving';
      logger.info({ characterId, accountId, ip: c.ip, oldConnection: old.id, connection: c.id }, 'takeover');
      try {
        await this.ctx.leave(characterId, oldSession, 'takeover');
      } finally {
        // Even when the save failed the old session is over: it must never keep a character it left.
        registry.unbind(characterId, old);
        old.close(CLOSE_TAKEN_OVER, 'taken over by a new connection');
      }
    } else if (world.isInWorld(characterId)) {
      await world.leaveAndSave(characterId, 'takeover');
    }
    await saves.waitForPending(characterId);
  }

  /**
   * The character's hold (several worlds), its saved state and its playerSessions row; null when the
   * connection closed meanwhile (everything taken is given back).
   */
  private async load(
    c: WsConnection,
    characterId: string,
    accountId: string,
  ): Promise<{ state: CharacterState; sessionRowId: string } | null> {
    const { worldLocks: locks, registry, port } = this.ctx.deps;
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
    const state = await this.batches.loadCharacter(characterId);
    if (state === null) {
      await giveBack();
      throw new Refusal(CLOSE_AUTH_FAILED, 'character not found');
    }
    if (c.closed) {
      await giveBack();
      return null;
    }
    const sessionRowId = await this.batches.recordLogin(characterId, accountId);
    if (sessionRowId === null) {
      await giveBack();
      throw new Refusal(CLOSE_AUTH_FAILED, 'character not found');
    }
    if (c.closed) {
      await port.recordLogout(sessionRowId);
      await giveBack();
      return null;
    }
    return { state, sessionRowId };
  }

  /** Bind, answer and join in one turn of the event loop (nothing awaits here). */
  private enter(
    c: WsConnection,
    s: Session,
    e: {
      accountId: string;
      anonymous: boolean;
      characterId: string;
      state: CharacterState;
      sessionRowId: string;
      sessionToken: string;
    },
  ): void {
    const { registry, world, logger, agents } = this.ctx.deps;
    clearTimeout(s.timer);
    Object.assign(s, {
      phase: 'joined',
      accountId: e.accountId,
      characterId: e.characterId,
      sessionRowId: e.sessionRowId,
      joinedAt: this.ctx.now(),
    });
    registry.bind(e.characterId, c);
    c.send('authResult', {
      success: true,
      accountId: e.accountId,
      characterId: e.characterId,
      anonymous: e.anonymous,
      sessionToken: e.sessionToken,
    });
    world.enqueue({
      type: 'join',
      characterId: e.characterId,
      accountId: e.accountId,
      state: e.state,
      origin: 'authenticate',
    });
    agents?.joined(e.characterId);
    logger.info(
      {
        accountId: e.accountId,
        characterId: e.characterId,
        ip: c.ip,
        encoding: c.encoding,
        anonymous: e.anonymous,
        connection: c.id,
      },
      'login',
    );
  }

  private async account(
    c: WsConnection,
    req: AuthRequest,
  ): Promise<{ accountId: string; anonymous: boolean; characterId?: string }> {
    const { limiter, authenticator, logger } = this.ctx.deps;
    const { limitRefusals } = this.ctx.deps.metrics;
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
      return { ...(await this.anonymousAccount(req)), anonymous: true };
    }
    // A valid token is never refused by the window: ten sign-ups from one address (a household, a
    // school, a NAT) must not lock out the accounts they made. Only failed checks count.
    const outcome = await authenticator.authenticate(req.authToken);
    if (outcome.ok) return outcome.auth;
    if (outcome.reason === 'banned') throw new Refusal(CLOSE_FORBIDDEN, 'account is banned');
    attempt();
    throw new Refusal(CLOSE_AUTH_FAILED, 'invalid token');
  }

  /** A new temporary account with its first character, written by the anonymous-login batch. */
  private async anonymousAccount(req: AuthRequest): Promise<{ accountId: string; characterId: string }> {
    // A new account has no characters: asking for one by id can only fail.
    if (req.characterId !== undefined)
      throw new Refusal(CLOSE_FORBIDDEN, 'character not found on this account');
    const accountId = randomUUID();
    for (let attempt = 0; ; attempt++) {
      let character: CharacterState;
      try {
        character = this.ctx.deps.characters.newForAnonymous(accountId, req.name);
      } catch (err) {
        if (err instanceof HttpError) throw new Refusal(CLOSE_AUTH_FAILED, err.detail);
        throw err;
      }
      if (await this.batches.createAnonymous({ userName: generateGuestName(), character }))
        return { accountId, characterId: character.id };
      if (req.name !== undefined) throw new Refusal(CLOSE_AUTH_FAILED, `The name "${req.name}" is taken`);
      if (attempt >= 20) throw new Error('no free generated character name after 20 attempts');
    }
  }

  private async pickCharacter(accountId: string, req: AuthRequest): Promise<string> {
    try {
      const picked = await this.ctx.deps.characters.selectForLogin(accountId, {
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
}
