import { randomBytes, randomUUID } from 'node:crypto';
import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { type CryptoKey, jwtVerify, SignJWT } from 'jose';
import type { Config } from '../../lib/config.ts';

/**
 * Server session tokens (contract §3.2): HS256 JWTs signed with JWT_SECRET, carrying the account id
 * (`sub`), a token id (`jti`), issue and expiry times and whether the account is anonymous.
 */

export const SESSION_ISSUER = 'hyperscape-server';
export const SESSION_TTL_SECONDS = 7 * 24 * 60 * 60;

export interface SessionClaims {
  accountId: string;
  anonymous: boolean;
  tokenId: string;
  expiresAt: Date;
}

export interface IssuedToken {
  token: string;
  expiresAt: Date;
}

export class SessionTokens {
  private constructor(
    private readonly key: CryptoKey,
    private readonly ttlSeconds: number,
    private readonly now: () => number,
  ) {}

  /**
   * `secret` is the raw JWT_SECRET. It is imported once as a non-extractable HMAC CryptoKey (verifying
   * with a ready key is about twice as fast as re-importing bytes on every call) and never kept as text.
   */
  static async fromSecret(
    secret: string,
    opts: { ttlSeconds?: number; now?: () => number } = {},
  ): Promise<SessionTokens> {
    if (secret.length < 16) throw new Error('the session signing secret is too short');
    const key = await crypto.subtle.importKey(
      'raw',
      new TextEncoder().encode(secret),
      { name: 'HMAC', hash: 'SHA-256' },
      false,
      ['sign', 'verify'],
    );
    return new SessionTokens(key, opts.ttlSeconds ?? SESSION_TTL_SECONDS, opts.now ?? Date.now);
  }

  async issue(accountId: string, anonymous: boolean): Promise<IssuedToken> {
    const iat = Math.floor(this.now() / 1000);
    const exp = iat + this.ttlSeconds;
    const token = await new SignJWT({ anon: anonymous })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(accountId)
      .setJti(randomUUID())
      .setIssuer(SESSION_ISSUER)
      .setIssuedAt(iat)
      .setExpirationTime(exp)
      .sign(this.key);
    return { token, expiresAt: new Date(exp * 1000) };
  }

  /** null for anything that is not a valid, unexpired token of this server; never throws. */
  async verify(token: string): Promise<SessionClaims | null> {
    try {
      const { payload } = await jwtVerify(token, this.key, {
        issuer: SESSION_ISSUER,
        algorithms: ['HS256'],
        requiredClaims: ['sub', 'exp', 'jti'],
        currentDate: new Date(this.now()),
      });
      if (typeof payload.sub !== 'string' || typeof payload.jti !== 'string') return null;
      return {
        accountId: payload.sub,
        anonymous: payload['anon'] === true,
        tokenId: payload.jti,
        expiresAt: new Date((payload.exp as number) * 1000),
      };
    } catch {
      return null;
    }
  }
}

/** Where the generated development secret lives: `${WORLD}/.data/jwt-secret`. */
export function devSecretPath(config: Pick<Config, 'worldDir'>): string {
  return path.join(config.worldDir, '.data', 'jwt-secret');
}

/**
 * JWT_SECRET, or outside production a random secret generated once and kept in `${WORLD}/.data/jwt-secret`
 * (mode 0600), so anonymous sessions survive restarts. The secret itself is never logged.
 */
export async function resolveJwtSecret(
  config: Pick<Config, 'isProduction' | 'worldDir'> & { auth: Pick<Config['auth'], 'jwtSecret'> },
): Promise<{ secret: string; source: 'env' | 'file' | 'generated' }> {
  if (config.auth.jwtSecret !== undefined) return { secret: config.auth.jwtSecret, source: 'env' };
  if (config.isProduction) throw new Error('JWT_SECRET is required in production');
  const file = devSecretPath(config);
  try {
    const existing = (await readFile(file, 'utf8')).trim();
    if (existing.length >= 32) return { secret: existing, source: 'file' };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const secret = randomBytes(48).toString('base64url');
  await mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, `${secret}\n`, { mode: 0o600 });
  await chmod(tmp, 0o600);
  await rename(tmp, file);
  return { secret, source: 'generated' };
}
