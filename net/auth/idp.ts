import {
  type CryptoKey,
  createLocalJWKSet,
  createRemoteJWKSet,
  importSPKI,
  type JSONWebKeySet,
  type JWTVerifyGetKey,
  jwtVerify,
} from 'jose';
import type { Config } from '../../lib/config.ts';

/**
 * Identity-provider access tokens (contract §3.2): ES256 or RS256 JWTs whose signature, audience
 * (IDP_APP_ID), issuer (IDP_ISSUER) and expiry are checked. Keys come from a remote JWKS (fetched and
 * cached by jose) or from IDP_VERIFICATION_KEY (a PEM public key or a JWKS document).
 */

export interface IdpIdentity {
  /** The provider's user id (`sub`). */
  subject: string;
}

export interface IdpVerifier {
  /** null for any token that does not verify; never throws. */
  verify(token: string): Promise<IdpIdentity | null>;
}

const ALGORITHMS = ['ES256', 'RS256'] as const;
/** Seconds of clock skew tolerated on exp/nbf/iat between the provider and this server. */
export const IDP_CLOCK_TOLERANCE_SECONDS = 5;

type KeySource = JWTVerifyGetKey | CryptoKey;

/** Undefined when no identity provider is configured (anonymous mode). */
export async function createIdpVerifier(idp: Config['auth']['idp']): Promise<IdpVerifier | undefined> {
  if (!idp.configured || idp.appId === undefined) return undefined;
  const { key, algorithms } = await keySource(idp);
  const audience = idp.appId;
  const issuer = idp.issuer;
  return {
    async verify(token) {
      try {
        const { payload } = await jwtVerify(token, key as JWTVerifyGetKey, {
          audience,
          issuer,
          algorithms: [...algorithms],
          clockTolerance: IDP_CLOCK_TOLERANCE_SECONDS,
          requiredClaims: ['exp', 'sub'],
        });
        if (typeof payload.sub !== 'string' || payload.sub.length === 0 || payload.sub.length > 256) {
          return null;
        }
        return { subject: payload.sub };
      } catch {
        return null;
      }
    },
  };
}

async function keySource(
  idp: Config['auth']['idp'],
): Promise<{ key: KeySource; algorithms: readonly string[] }> {
  if (idp.jwksUrl !== undefined) {
    return {
      key: createRemoteJWKSet(new URL(idp.jwksUrl), { cacheMaxAge: 10 * 60_000, timeoutDuration: 5000 }),
      algorithms: ALGORITHMS,
    };
  }
  const text = idp.verificationKey?.trim();
  if (text === undefined || text === '') {
    throw new Error('identity provider configured without IDP_JWKS_URL or IDP_VERIFICATION_KEY');
  }
  if (text.startsWith('{')) {
    let jwks: JSONWebKeySet;
    try {
      jwks = JSON.parse(text) as JSONWebKeySet;
    } catch {
      throw new Error('IDP_VERIFICATION_KEY looks like JSON but does not parse as a JWKS document');
    }
    if (!Array.isArray(jwks.keys)) throw new Error('IDP_VERIFICATION_KEY JWKS document has no "keys" array');
    return { key: createLocalJWKSet(jwks), algorithms: ALGORITHMS };
  }
  // A PEM key fixes the algorithm: an EC P-256 key only imports for ES256, an RSA key only for RS256.
  const pem = text.replace(/\\n/g, '\n');
  for (const alg of ALGORITHMS) {
    try {
      return { key: await importSPKI(pem, alg), algorithms: [alg] };
    } catch {
      // try the next algorithm
    }
  }
  throw new Error('IDP_VERIFICATION_KEY is neither a P-256/RSA SPKI PEM public key nor a JWKS document');
}
