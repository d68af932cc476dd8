import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  type CryptoKey,
  exportJWK,
  exportSPKI,
  generateKeyPair,
  type JWK,
  type JWTPayload,
  SignJWT,
} from 'jose';

/**
 * A locally generated ES256 key pair acting as the identity provider in tests: signs access tokens,
 * serves its JWKS from a node:http server on 127.0.0.1:0, and exports the PEM public key.
 */

export const TEST_APP_ID = 'test-app-id';
export const TEST_ISSUER = 'test-idp.local';

export interface TestIdp {
  readonly kid: string;
  readonly publicJwk: JWK;
  /** SPKI PEM of the public key (IDP_VERIFICATION_KEY). */
  readonly publicPem: string;
  /** `{"keys":[...]}` (IDP_VERIFICATION_KEY as a JWKS document). */
  readonly jwksJson: string;
  sign(
    claims?: TokenClaims,
    opts?: { alg?: 'ES256' | 'RS256'; key?: CryptoKey; kid?: string },
  ): Promise<string>;
}

export interface TokenClaims extends JWTPayload {
  sub?: string;
  aud?: string;
  iss?: string;
  /** Seconds from now; negative = already expired. Default 600. */
  expiresIn?: number;
}

export async function createTestIdp(kid = 'test-key-1'): Promise<TestIdp> {
  const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: 'ES256', use: 'sig' };
  return {
    kid,
    publicJwk,
    publicPem: await exportSPKI(publicKey),
    jwksJson: JSON.stringify({ keys: [publicJwk] }),
    async sign(claims = {}, opts = {}) {
      const { expiresIn = 600, sub = 'idp-user-1', aud = TEST_APP_ID, iss = TEST_ISSUER, ...rest } = claims;
      const now = Math.floor(Date.now() / 1000);
      return new SignJWT(rest)
        .setProtectedHeader({ alg: opts.alg ?? 'ES256', kid: opts.kid ?? kid, typ: 'JWT' })
        .setSubject(sub)
        .setAudience(aud)
        .setIssuer(iss)
        .setIssuedAt(now)
        .setExpirationTime(now + expiresIn)
        .sign(opts.key ?? privateKey);
    },
  };
}

/** An unsigned token (`alg: none`) with valid-looking claims: must always be refused. */
export function unsignedToken(claims: TokenClaims = {}): string {
  const now = Math.floor(Date.now() / 1000);
  const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const payload = {
    sub: 'idp-user-1',
    aud: TEST_APP_ID,
    iss: TEST_ISSUER,
    iat: now,
    exp: now + 600,
    ...claims,
  };
  return `${b64({ alg: 'none', typ: 'JWT' })}.${b64(payload)}.`;
}

/** Replaces the payload of a signed token (signature kept): must always be refused. */
export function tamperPayload(token: string, change: Record<string, unknown>): string {
  const [header, payload, signature] = token.split('.') as [string, string, string];
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
  const tampered = Buffer.from(JSON.stringify({ ...claims, ...change })).toString('base64url');
  return `${header}.${tampered}.${signature}`;
}

/** Serves `jwks` at /.well-known/jwks.json on 127.0.0.1 and a free port; counts requests. */
export async function serveJwks(
  jwksJson: string,
): Promise<{ url: string; hits: () => number; close(): Promise<void> }> {
  let hits = 0;
  const server = http.createServer((req, res) => {
    if (req.url === '/.well-known/jwks.json') {
      hits++;
      res.writeHead(200, { 'content-type': 'application/json' }).end(jwksJson);
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/.well-known/jwks.json`,
    hits: () => hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
