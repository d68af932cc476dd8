import type { PersistencePort, UserRecord } from '../../persistence/port.ts';
import type { AuthContext } from '../http/types.ts';
import { HttpError } from '../http/types.ts';
import type { IdpVerifier } from './idp.ts';
import type { SessionTokens } from './session-tokens.ts';

/**
 * One place that turns a token into an account: a server session token first (cheap, local), then an
 * identity-provider token when a provider is configured. Used by HTTP bearer auth and WebSocket auth.
 */

export type AuthOutcome =
  | { ok: true; auth: AuthContext; user: UserRecord }
  | { ok: false; reason: 'invalid' | 'banned' };

export class Authenticator {
  constructor(
    private readonly port: Pick<PersistencePort, 'getUser' | 'findOrCreateIdpUser'>,
    readonly tokens: SessionTokens,
    private readonly idp: IdpVerifier | undefined,
  ) {}

  /** Anonymous mode: no identity provider is configured (contract §3.2). */
  get anonymousMode(): boolean {
    return this.idp === undefined;
  }

  async authenticate(token: string): Promise<AuthOutcome> {
    const session = await this.tokens.verify(token);
    let user: UserRecord | null = null;
    if (session !== null) {
      user = await this.port.getUser(session.accountId);
    } else if (this.idp !== undefined) {
      const identity = await this.idp.verify(token);
      if (identity !== null) user = await this.port.findOrCreateIdpUser(identity.subject);
    }
    if (user === null) return { ok: false, reason: 'invalid' };
    if (user.banned) return { ok: false, reason: 'banned' };
    return { ok: true, auth: { accountId: user.id, anonymous: user.anonymous }, user };
  }

  /** Only an identity-provider token (POST /api/auth/login); null when it does not verify. */
  async loginWithIdp(idpToken: string): Promise<AuthOutcome> {
    if (this.idp === undefined) return { ok: false, reason: 'invalid' };
    const identity = await this.idp.verify(idpToken);
    if (identity === null) return { ok: false, reason: 'invalid' };
    const user = await this.port.findOrCreateIdpUser(identity.subject);
    if (user.banned) return { ok: false, reason: 'banned' };
    return { ok: true, auth: { accountId: user.id, anonymous: user.anonymous }, user };
  }

  /**
   * The transport's bearer hook: null (401) for a missing or invalid token; a banned account is a
   * valid identity without permission, so it is refused with 403.
   */
  readonly verifyBearer = async (token: string): Promise<AuthContext | null> => {
    const outcome = await this.authenticate(token);
    if (outcome.ok) return outcome.auth;
    if (outcome.reason === 'banned') throw new HttpError(403, 'FORBIDDEN', 'This account is banned');
    return null;
  };
}
