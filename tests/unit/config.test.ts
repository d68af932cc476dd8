import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, withListenPort } from '../../lib/config.ts';

const PROD_OK = {
  NODE_ENV: 'production',
  DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/test',
  JWT_SECRET: 'a-production-secret-of-at-least-32-chars',
  ADMIN_CODE: 'admin-code',
  PUBLIC_IDP_APP_ID: 'app-1',
  IDP_APP_ID: 'app-1',
  IDP_APP_SECRET: 'idp-secret',
  IDP_JWKS_URL: 'https://auth.privy.io/jwks.json',
};

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env, '/srv/game');
  } catch (err) {
    if (err instanceof ConfigError) return [...err.problems];
    throw err;
  }
  return [];
}

describe('loadConfig defaults (specification runtime table, contract §4)', () => {
  const c = loadConfig({}, '/srv/game');

  it('uses the documented defaults', () => {
    expect(c.env).toBe('development');
    expect(c.port).toBe(5555);
    expect(c.saveIntervalSeconds).toBe(60);
    expect(c.tickMs).toBe(600);
    expect(c.agentPort).toBe(4001);
    expect(c.urls).toMatchObject({
      cdn: 'http://localhost:8080',
      api: 'http://localhost:5555',
      ws: 'ws://localhost:5555/ws',
    });
    expect(c.auth.idp.issuer).toBe('privy.io');
    expect(c.auth.idp.configured).toBe(false);
    expect(c.auth.wsAuthTimeoutMs).toBe(30_000);
    expect(c.rateLimit).toEqual({ disabled: false, trustProxy: false });
    expect(c.worldDir).toBe('/srv/game/world');
    expect(c.database.pgliteDataDir).toBe('/srv/game/world/.data/pglite');
  });

  it('is deeply frozen', () => {
    expect(Object.isFrozen(c)).toBe(true);
    expect(Object.isFrozen(c.urls)).toBe(true);
    expect(Object.isFrozen(c.auth.idp)).toBe(true);
  });
});

describe('loadConfig parsing', () => {
  it('PUBLIC_API_URL and PUBLIC_WS_URL follow PORT unless set; with PORT=0, the port the server got', () => {
    const c = loadConfig({ PORT: '8081' });
    expect(c.urls).toMatchObject({ api: 'http://localhost:8081', ws: 'ws://localhost:8081/ws' });
    expect(c.publicEnv).toMatchObject({
      PUBLIC_API_URL: 'http://localhost:8081',
      PUBLIC_WS_URL: 'ws://localhost:8081/ws',
    });
    expect(withListenPort(c, 40_000)).toBe(c);
    const set = loadConfig({ PORT: '0', PUBLIC_WS_URL: 'wss://w.example.com/ws' });
    const listening = withListenPort(set, 40_001);
    expect(listening.urls).toMatchObject({ api: 'http://localhost:40001', ws: 'wss://w.example.com/ws' });
    expect(listening.publicEnv).toMatchObject({
      PUBLIC_API_URL: 'http://localhost:40001',
      PUBLIC_WS_URL: 'wss://w.example.com/ws',
    });
    expect(Object.isFrozen(listening.urls)).toBe(true);
  });

  it('parses numbers, booleans and trims URLs', () => {
    const c = loadConfig({
      PORT: '8081',
      SAVE_INTERVAL: '5',
      TICK_MS: '100',
      TRUST_PROXY: 'yes',
      DISABLE_RATE_LIMIT: '1',
      PUBLIC_APP_URL: ' https://play.example.com/ ',
      COMMIT_HASH: 'abc123',
    });
    expect(c.port).toBe(8081);
    expect(c.saveIntervalSeconds).toBe(5);
    expect(c.tickMs).toBe(100);
    expect(c.rateLimit).toEqual({ disabled: true, trustProxy: true });
    expect(c.urls.app).toBe('https://play.example.com');
    expect(c.commitHash).toBe('abc123');
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['SAVE_INTERVAL', '0'],
    ['TRUST_PROXY', 'maybe'],
    ['NODE_ENV', 'staging'],
    ['PUBLIC_CDN_URL', 'not a url'],
  ])('rejects %s=%s naming the variable', (key, value) => {
    const problems = problemsOf({ [key]: value });
    expect(problems.length).toBe(1);
    expect(problems[0]).toContain(key);
  });

  it('puts only PUBLIC_* settings in publicEnv, never a secret', () => {
    const c = loadConfig({ ...PROD_OK, NODE_ENV: 'development', VOICE_API_SECRET: 'voice-secret' });
    expect(Object.keys(c.publicEnv).every((k) => k.startsWith('PUBLIC_'))).toBe(true);
    expect(c.publicEnv['PUBLIC_IDP_APP_ID']).toBe('app-1');
    const text = JSON.stringify(c.publicEnv);
    for (const secret of [PROD_OK.JWT_SECRET, PROD_OK.ADMIN_CODE, PROD_OK.IDP_APP_SECRET, 'voice-secret']) {
      expect(text).not.toContain(secret);
    }
  });
});

describe('loadConfig production rules', () => {
  it('accepts a complete production environment', () => {
    expect(problemsOf(PROD_OK)).toEqual([]);
  });

  it.each(['DATABASE_URL', 'JWT_SECRET', 'ADMIN_CODE', 'PUBLIC_IDP_APP_ID', 'IDP_APP_ID', 'IDP_APP_SECRET'])(
    'refuses a missing %s by name',
    (key) => {
      const env: Record<string, string> = { ...PROD_OK };
      delete env[key];
      const problems = problemsOf(env);
      expect(problems.some((p) => p.includes(key))).toBe(true);
    },
  );

  it('names every problem at once', () => {
    const problems = problemsOf({ NODE_ENV: 'production', DISABLE_RATE_LIMIT: 'true' });
    for (const key of ['DATABASE_URL', 'JWT_SECRET', 'ADMIN_CODE', 'IDP_APP_SECRET', 'DISABLE_RATE_LIMIT']) {
      expect(problems.join('\n')).toContain(key);
    }
  });

  it('refuses IDP_APP_ID different from PUBLIC_IDP_APP_ID', () => {
    expect(problemsOf({ ...PROD_OK, IDP_APP_ID: 'app-2' })).toEqual([
      'IDP_APP_ID must equal PUBLIC_IDP_APP_ID',
    ]);
  });

  it('refuses DISABLE_RATE_LIMIT=true in production, allows it in development', () => {
    expect(problemsOf({ ...PROD_OK, DISABLE_RATE_LIMIT: 'true' })).toEqual([
      'DISABLE_RATE_LIMIT=true is not allowed in production',
    ]);
    expect(loadConfig({ DISABLE_RATE_LIMIT: 'true' }).rateLimit.disabled).toBe(true);
  });
});

describe('metrics and connection limits (docs/configuration.md)', () => {
  it('serves /metrics on 127.0.0.1:9464 by default, not on the public port, with the documented limits', () => {
    const c = loadConfig({}, '/srv/game');
    expect(c.metrics).toEqual({ port: 9464, host: '127.0.0.1', token: undefined });
    expect(c.limits).toEqual({
      wsConnectionsPerAddress: 20,
      wsUnauthenticated: 1000,
      httpBodyTimeoutMs: 5000,
      wsOrigins: undefined,
    });
  });

  it('METRICS_PORT takes a port, 0 (any free port) or off', () => {
    expect(loadConfig({ METRICS_PORT: 'off' }).metrics.port).toBeNull();
    expect(loadConfig({ METRICS_PORT: '0' }).metrics.port).toBe(0);
    expect(loadConfig({ METRICS_PORT: '9100' }).metrics.port).toBe(9100);
    expect(problemsOf({ METRICS_PORT: 'nine' })[0]).toMatch(/^METRICS_PORT: expected a port/);
    expect(problemsOf({ METRICS_PORT: '5555' })).toEqual([
      'METRICS_PORT must differ from PORT (or be "off" and METRICS_TOKEN set)',
    ]);
  });

  it('ALLOWED_WS_ORIGINS takes origins or *, and refuses anything that is not an origin', () => {
    expect(
      loadConfig({ ALLOWED_WS_ORIGINS: 'https://play.example.com, http://localhost:3333' }).limits.wsOrigins,
    ).toEqual(['https://play.example.com', 'http://localhost:3333']);
    expect(loadConfig({ ALLOWED_WS_ORIGINS: '*' }).limits.wsOrigins).toBe('*');
    for (const bad of ['play.example.com', 'https://play.example.com/game', 'https://x.com?a=1']) {
      expect(problemsOf({ ALLOWED_WS_ORIGINS: bad })[0], bad).toMatch(
        /^ALLOWED_WS_ORIGINS: expected origins/,
      );
    }
  });

  it('production refuses a short METRICS_TOKEN, metrics beyond loopback without a token, and any WS origin', () => {
    expect(problemsOf({ ...PROD_OK, METRICS_TOKEN: 'short' })).toEqual([
      'METRICS_TOKEN must be at least 32 characters in production',
    ]);
    expect(problemsOf({ ...PROD_OK, METRICS_HOST: '0.0.0.0' })).toEqual([
      'METRICS_HOST=0.0.0.0 exposes /metrics beyond this machine: set METRICS_TOKEN too in production',
    ]);
    expect(
      problemsOf({
        ...PROD_OK,
        METRICS_HOST: '0.0.0.0',
        METRICS_TOKEN: 'a-metrics-token-of-at-least-32-chars!',
      }),
    ).toEqual([]);
    expect(problemsOf({ ...PROD_OK, ALLOWED_WS_ORIGINS: '*' })).toEqual([
      'ALLOWED_WS_ORIGINS=* is not allowed in production',
    ]);
    // Outside production the same settings start.
    expect(problemsOf({ METRICS_HOST: '0.0.0.0', ALLOWED_WS_ORIGINS: '*' })).toEqual([]);
  });
});

describe('several worlds (docs/scaling.md)', () => {
  it('defaults to world 1 with no NATS: one world, zero setup', () => {
    expect(loadConfig({}, '/srv/game').worlds).toEqual({
      worldId: 1,
      natsUrl: undefined,
      natsPrefix: 'hyperscape',
      lockTtlMs: 30_000,
    });
  });

  it('takes WORLD_ID, NATS_URL, NATS_SUBJECT_PREFIX and WORLD_LOCK_TTL_SECONDS, and refuses bad values', () => {
    expect(
      loadConfig(
        {
          WORLD_ID: '3',
          NATS_URL: 'nats://127.0.0.1:4222',
          NATS_SUBJECT_PREFIX: 'game_two',
          WORLD_LOCK_TTL_SECONDS: '5',
        },
        '/srv/game',
      ).worlds,
    ).toEqual({ worldId: 3, natsUrl: 'nats://127.0.0.1:4222', natsPrefix: 'game_two', lockTtlMs: 5000 });
    // A subject token: no dots or wildcards that would reach into another game's subjects.
    for (const bad of ['a.b', '*', '>', ''])
      expect(problemsOf({ NATS_SUBJECT_PREFIX: bad })[0]).toMatch(/^NATS_SUBJECT_PREFIX: /);
    expect(problemsOf({ WORLD_ID: '0' })).toEqual([
      'WORLD_ID: expected an integer between 1 and 65535, got "0"',
    ]);
    expect(problemsOf({ NATS_URL: 'localhost:4222' })).toEqual([
      'NATS_URL: expected a nats:// address, got "localhost:4222"',
    ]);
    expect(problemsOf({ WORLD_LOCK_TTL_SECONDS: '1' })).toHaveLength(1);
  });
});
