import { generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../../lib/config.ts';
import { createIdpVerifier, type IdpVerifier } from '../../net/auth/idp.ts';
import {
  createTestIdp,
  serveJwks,
  TEST_APP_ID,
  TEST_ISSUER,
  type TestIdp,
  tamperPayload,
  unsignedToken,
} from '../helpers/idp.ts';

/** Identity-provider token checks against a locally generated ES256 provider (contract §3.2). */

type IdpConfig = Config['auth']['idp'];
const idpConfig = (over: Partial<IdpConfig>): IdpConfig => ({
  configured: true,
  appId: TEST_APP_ID,
  publicAppId: TEST_APP_ID,
  appSecret: 'secret',
  issuer: TEST_ISSUER,
  jwksUrl: undefined,
  verificationKey: undefined,
  ...over,
});

let idp: TestIdp;
let jwks: Awaited<ReturnType<typeof serveJwks>>;

beforeAll(async () => {
  idp = await createTestIdp();
  jwks = await serveJwks(idp.jwksJson);
});
afterAll(async () => {
  await jwks?.close();
});

it('is undefined when no provider is configured (anonymous mode)', async () => {
  expect(await createIdpVerifier(idpConfig({ configured: false, appId: undefined }))).toBeUndefined();
});

const sources: [string, () => Partial<IdpConfig>][] = [
  ['a remote JWKS (IDP_JWKS_URL)', () => ({ jwksUrl: jwks.url })],
  ['a PEM public key (IDP_VERIFICATION_KEY)', () => ({ verificationKey: idp.publicPem })],
  ['a JWKS document (IDP_VERIFICATION_KEY)', () => ({ verificationKey: idp.jwksJson })],
];

describe.each(sources)('keys from %s', (_name, source) => {
  let verifier: IdpVerifier;
  beforeAll(async () => {
    verifier = (await createIdpVerifier(idpConfig(source()))) as IdpVerifier;
  });

  it('accepts a valid token and returns its subject', async () => {
    expect(await verifier.verify(await idp.sign({ sub: 'user-42' }))).toEqual({ subject: 'user-42' });
  });

  it('tolerates a few seconds of clock skew on expiry', async () => {
    expect(await verifier.verify(await idp.sign({ expiresIn: -2 }))).not.toBeNull();
  });

  const refused: [string, () => Promise<string>][] = [
    ['wrong audience', () => idp.sign({ aud: 'another-app' })],
    ['wrong issuer', () => idp.sign({ iss: 'evil.example' })],
    ['expired', () => idp.sign({ expiresIn: -60 })],
    ['signed by another key', async () => idp.sign({}, { key: (await generateKeyPair('ES256')).privateKey })],
    ['alg none', async () => unsignedToken()],
    ['tampered payload', async () => tamperPayload(await idp.sign({ sub: 'user-1' }), { sub: 'admin' })],
    [
      'HS256 signed with the public key bytes',
      async () =>
        new SignJWT({})
          .setProtectedHeader({ alg: 'HS256', kid: idp.kid })
          .setSubject('user-1')
          .setAudience(TEST_APP_ID)
          .setIssuer(TEST_ISSUER)
          .setExpirationTime('10m')
          .sign(new TextEncoder().encode(idp.publicPem)),
    ],
    ['garbage', async () => 'not.a.jwt'],
  ];
  it.each(refused)('refuses a token with %s', async (_case, make) => {
    expect(await verifier.verify(await make())).toBeNull();
  });
});

it('fetches the remote key set once and caches it', async () => {
  const before = jwks.hits();
  const verifier = (await createIdpVerifier(idpConfig({ jwksUrl: jwks.url }))) as IdpVerifier;
  for (let i = 0; i < 3; i++) expect(await verifier.verify(await idp.sign())).not.toBeNull();
  expect(jwks.hits() - before).toBe(1);
});

it('accepts RS256 tokens with an RSA PEM key', async () => {
  const rsa = await generateKeyPair('RS256', { extractable: true });
  const { exportSPKI } = await import('jose');
  const verifier = (await createIdpVerifier(
    idpConfig({ verificationKey: await exportSPKI(rsa.publicKey) }),
  )) as IdpVerifier;
  expect(
    await verifier.verify(await idp.sign({ sub: 'rsa-user' }, { alg: 'RS256', key: rsa.privateKey })),
  ).toEqual({ subject: 'rsa-user' });
  expect(await verifier.verify(await idp.sign())).toBeNull();
});

it('refuses to start with an unusable IDP_VERIFICATION_KEY', async () => {
  await expect(createIdpVerifier(idpConfig({ verificationKey: 'not a key' }))).rejects.toThrow(
    /IDP_VERIFICATION_KEY/,
  );
  await expect(createIdpVerifier(idpConfig({ verificationKey: '{"nope":1}' }))).rejects.toThrow(/keys/);
});
