import { describe, expect, it } from 'vitest';
import { startTestServer } from '../helpers/server.ts';

describe('/env.js (contract §3.5)', () => {
  const SECRETS = {
    DATABASE_URL: 'postgres://dbuser:SECRET-db-password-7731@db.internal:5432/game',
    JWT_SECRET: 'SECRET-jwt-signing-key-0123456789abcdef',
    ADMIN_CODE: 'SECRET-admin-code-4242',
    IDP_APP_SECRET: 'SECRET-idp-app-secret-9090',
    IDP_VERIFICATION_KEY: 'SECRET-idp-verification-key-5151',
    VOICE_API_KEY: 'SECRET-voice-key-1111',
    VOICE_API_SECRET: 'SECRET-voice-secret-2222',
  };

  it('sets window.env to the PUBLIC_* settings only; no secret reaches it or any fixed route', async () => {
    const env = await startTestServer({
      ...SECRETS,
      IDP_APP_ID: 'public-app-id-1',
      PUBLIC_IDP_APP_ID: 'public-app-id-1',
      PUBLIC_CDN_URL: 'https://cdn.example.com',
      PUBLIC_APP_URL: 'https://play.example.com',
    });
    try {
      const res = await fetch(`${env.url}/env.js`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/javascript; charset=utf-8');
      const script = await res.text();
      const m = /^window\.env = (\{.*\});\n$/s.exec(script);
      expect(m, script).not.toBeNull();
      const publicEnv = JSON.parse(m![1]!) as Record<string, string>;
      expect(publicEnv).toEqual({
        PUBLIC_IDP_APP_ID: 'public-app-id-1',
        PUBLIC_CDN_URL: 'https://cdn.example.com',
        // Not set: this server at the port it got (PORT=0 here).
        PUBLIC_API_URL: `http://localhost:${env.port}`,
        PUBLIC_WS_URL: `ws://localhost:${env.port}/ws`,
        PUBLIC_APP_URL: 'https://play.example.com',
      });
      for (const p of ['/env.js', '/health', '/status', '/metrics']) {
        const text = await (await fetch(`${env.url}${p}`)).text();
        expect(text, p).not.toContain('SECRET-');
        for (const value of Object.values(SECRETS)) expect(text, p).not.toContain(value);
      }
    } finally {
      await env.stop();
    }
  });
});
