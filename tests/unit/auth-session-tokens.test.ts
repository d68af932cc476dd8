import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { SignJWT } from 'jose';
import { afterAll, describe, expect, it } from 'vitest';
import {
  devSecretPath,
  resolveJwtSecret,
  SESSION_ISSUER,
  SESSION_TTL_SECONDS,
  SessionTokens,
} from '../../net/auth/session-tokens.ts';
import { tamperPayload } from '../helpers/idp.ts';

const SECRET = 'a-test-secret-that-is-long-enough-0123456789';
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('SessionTokens', () => {
  it('issues a token that verifies back to the account, anonymous flag and expiry', async () => {
    const t = await SessionTokens.fromSecret(SECRET);
    const issued = await t.issue('acct-1', true);
    const claims = await t.verify(issued.token);
    expect(claims).toMatchObject({ accountId: 'acct-1', anonymous: true });
    expect(claims?.expiresAt.getTime()).toBe(issued.expiresAt.getTime());
    expect(issued.expiresAt.getTime() - Date.now()).toBeGreaterThan((SESSION_TTL_SECONDS - 60) * 1000);
    const other = await t.issue('acct-1', false);
    const second = await t.verify(other.token);
    expect(second?.anonymous).toBe(false);
    expect(second?.tokenId).not.toBe(claims?.tokenId);
  });

  it('refuses expired, tampered, foreign-secret, wrong-issuer and unsigned tokens', async () => {
    let now = Date.now();
    const t = await SessionTokens.fromSecret(SECRET, { ttlSeconds: 60, now: () => now });
    const { token } = await t.issue('acct-1', false);
    expect(await t.verify(token)).not.toBeNull();
    expect(await t.verify(tamperPayload(token, { sub: 'acct-2' }))).toBeNull();
    const other = await SessionTokens.fromSecret(`${SECRET}-other`);
    expect(await other.verify(token)).toBeNull();
    const wrongIssuer = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('acct-1')
      .setJti('x')
      .setIssuer('someone-else')
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode(SECRET));
    expect(await t.verify(wrongIssuer)).toBeNull();
    const noneAlg = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${token.split('.')[1]}.`;
    expect(await t.verify(noneAlg)).toBeNull();
    now += 61_000;
    expect(await t.verify(token)).toBeNull();
  });

  it('signs with the server issuer', async () => {
    const t = await SessionTokens.fromSecret(SECRET);
    const { token } = await t.issue('a', false);
    const payload = JSON.parse(Buffer.from(token.split('.')[1] as string, 'base64url').toString());
    expect(payload).toMatchObject({ iss: SESSION_ISSUER, sub: 'a', anon: false });
    expect(typeof payload.jti).toBe('string');
  });

  it('refuses a secret that is too short', async () => {
    await expect(SessionTokens.fromSecret('short')).rejects.toThrow(/too short/);
  });
});

describe('resolveJwtSecret', () => {
  const world = () => {
    const d = mkdtempSync(path.join(os.tmpdir(), 'jwt-secret-'));
    dirs.push(d);
    return d;
  };

  it('uses JWT_SECRET when set', async () => {
    const r = await resolveJwtSecret({ isProduction: true, worldDir: world(), auth: { jwtSecret: SECRET } });
    expect(r).toEqual({ secret: SECRET, source: 'env' });
  });

  it('refuses production without JWT_SECRET', async () => {
    await expect(
      resolveJwtSecret({ isProduction: true, worldDir: world(), auth: { jwtSecret: undefined } }),
    ).rejects.toThrow(/JWT_SECRET/);
  });

  it('outside production generates a secret once, mode 0600, and reuses it after a restart', async () => {
    const worldDir = world();
    const cfg = { isProduction: false, worldDir, auth: { jwtSecret: undefined } };
    const first = await resolveJwtSecret(cfg);
    expect(first.source).toBe('generated');
    expect(first.secret.length).toBeGreaterThanOrEqual(32);
    const file = devSecretPath({ worldDir });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect((await readFile(file, 'utf8')).trim()).toBe(first.secret);
    const second = await resolveJwtSecret(cfg);
    expect(second).toEqual({ secret: first.secret, source: 'file' });
    // A token issued before the "restart" still verifies after it.
    const before = await SessionTokens.fromSecret(first.secret);
    const after = await SessionTokens.fromSecret(second.secret);
    const { token } = await before.issue('acct-x', true);
    expect((await after.verify(token))?.accountId).toBe('acct-x');
  });
});
