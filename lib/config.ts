import path from 'node:path';
import { z } from 'zod';

/**
 * Runtime configuration: every setting of docs/configuration.md, parsed once from the environment into
 * a frozen object. Production refuses unsafe settings with one message that
 * names every problem, before anything connects.
 */

const bool = (fallback: boolean) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v.trim() === '') return fallback;
      const s = v.trim().toLowerCase();
      if (['1', 'true', 'yes', 'on'].includes(s)) return true;
      if (['0', 'false', 'no', 'off'].includes(s)) return false;
      ctx.addIssue({ code: 'custom', message: `expected true or false, got "${v}"` });
      return z.NEVER;
    });

const int = (fallback: number, min: number, max: number) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v.trim() === '') return fallback;
      const n = Number(v);
      if (!Number.isInteger(n) || n < min || n > max) {
        ctx.addIssue({
          code: 'custom',
          message: `expected an integer between ${min} and ${max}, got "${v}"`,
        });
        return z.NEVER;
      }
      return n;
    });

const optionalString = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));

const url = (fallback: string | undefined) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      const s = v === undefined || v.trim() === '' ? fallback : v.trim();
      if (s === undefined) return undefined;
      try {
        new URL(s);
      } catch {
        ctx.addIssue({ code: 'custom', message: `expected a URL, got "${s}"` });
        return z.NEVER;
      }
      return s.replace(/\/+$/, '');
    });

const envSchema = z.object({
  PORT: int(5555, 0, 65535),
  HOST: z
    .string()
    .optional()
    .transform((v) => v?.trim() || '0.0.0.0'),
  NODE_ENV: z
    .string()
    .optional()
    .transform((v) => v?.trim() || 'development')
    .pipe(z.enum(['development', 'production', 'test'])),
  WORLD: z
    .string()
    .optional()
    .transform((v) => v?.trim() || 'world'),
  DATABASE_URL: optionalString,
  PGLITE_DATA_DIR: optionalString,
  USE_LOCAL_POSTGRES: bool(false),
  JWT_SECRET: optionalString,
  ADMIN_CODE: optionalString,
  PUBLIC_IDP_APP_ID: optionalString,
  IDP_APP_ID: optionalString,
  IDP_APP_SECRET: optionalString,
  IDP_ISSUER: z
    .string()
    .optional()
    .transform((v) => v?.trim() || 'privy.io'),
  IDP_JWKS_URL: url(undefined),
  IDP_VERIFICATION_KEY: optionalString,
  PUBLIC_CDN_URL: url('http://localhost:8080'),
  PRODUCTION_CDN_URL: url(undefined),
  // Unset: this server on localhost at PORT (publicUrlDefaults), filled in below.
  PUBLIC_API_URL: url(undefined),
  PUBLIC_WS_URL: url(undefined),
  PUBLIC_APP_URL: url(undefined),
  CLIENT_URL: url(undefined),
  AGENT_URL: url(undefined),
  AGENT_API_URL: url(undefined),
  AGENT_PORT: int(4001, 1, 65535),
  VOICE_API_KEY: optionalString,
  VOICE_API_SECRET: optionalString,
  VOICE_URL: url(undefined),
  SAVE_INTERVAL: int(60, 1, 86_400),
  TICK_MS: int(600, 10, 60_000),
  HOME_TELEPORT_COOLDOWN: int(1800, 0, 86_400),
  DISABLE_RATE_LIMIT: bool(false),
  TRUST_PROXY: bool(false),
  SKIP_MANIFESTS: bool(false),
  SKIP_ASSETS: bool(false),
  CI: bool(false),
  COMMIT_HASH: optionalString,
  LOG_LEVEL: z
    .string()
    .optional()
    .transform((v) => v?.trim() || 'info')
    .pipe(z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])),
  /** Seconds a WebSocket may stay unauthenticated (contract §1.2: 30). Shorter in tests. */
  WS_AUTH_TIMEOUT_SECONDS: int(30, 1, 3600),
  /** This world's number among several sharing one database (docs/scaling.md). */
  WORLD_ID: int(1, 1, 65_535),
  /** The first token of every NATS subject: worlds of one game share it; two games on one NATS server differ. */
  NATS_SUBJECT_PREFIX: z
    .string()
    .default('hyperscape')
    .refine((v) => /^[A-Za-z0-9_-]{1,64}$/.test(v), 'letters, digits, _ and - only (1-64 characters)'),
  /** The NATS server joining several worlds; unset: one world, messages stay in this process. */
  NATS_URL: z
    .string()
    .optional()
    .transform((v, ctx) => {
      const s = v?.trim() ?? '';
      if (s === '') return undefined;
      if (!/^(nats|tls|wss?):\/\/[^\s]+$/.test(s)) {
        ctx.addIssue({ code: 'custom', message: `expected a nats:// address, got "${v}"` });
        return z.NEVER;
      }
      return s;
    }),
  /** Seconds a world's hold on a character lasts without renewal (several worlds only). */
  WORLD_LOCK_TTL_SECONDS: int(30, 2, 3600),
  /** Seed of the world's random generator; same seed + same commands = same world. */
  WORLD_SEED: int(1, 0, 2 ** 31 - 1),
  /** The separate /metrics listener: a port (0 = any free one), or `off`. */
  METRICS_PORT: z
    .string()
    .optional()
    .transform((v, ctx) => {
      const s = v?.trim().toLowerCase() ?? '';
      if (s === '') return 9464;
      if (s === 'off') return null;
      const n = Number(s);
      if (!Number.isInteger(n) || n < 0 || n > 65535) {
        ctx.addIssue({ code: 'custom', message: `expected a port (0-65535) or "off", got "${v}"` });
        return z.NEVER;
      }
      return n;
    }),
  METRICS_HOST: z
    .string()
    .optional()
    .transform((v) => v?.trim() || '127.0.0.1'),
  /** When set, /metrics is also served on the public port, to `Authorization: Bearer <token>` only. */
  METRICS_TOKEN: optionalString,
  /** Open WebSocket connections one client address may hold. */
  WS_MAX_CONNECTIONS_PER_ADDRESS: int(20, 1, 100_000),
  /** WebSocket connections that have not authenticated yet, server-wide. */
  WS_MAX_UNAUTHENTICATED: int(1000, 1, 1_000_000),
  /**
   * Seconds a client may take to send a request body once its headers are in (answered 408 past it). At
   * most 9: uWS itself drops a connection whose request has not fully arrived after about 10 s.
   */
  HTTP_BODY_TIMEOUT_SECONDS: int(5, 1, 9),
  /** Origins a browser may open /ws from: a comma-separated list, or `*` for any. Unset: the CORS allowlist. */
  ALLOWED_WS_ORIGINS: z
    .string()
    .optional()
    .transform((v, ctx) => {
      const s = v?.trim() ?? '';
      if (s === '') return undefined;
      if (s === '*') return '*' as const;
      const origins: string[] = [];
      for (const part of s.split(',')) {
        const item = part.trim();
        if (item === '') continue;
        let u: URL | undefined;
        try {
          u = new URL(item);
        } catch {
          u = undefined;
        }
        if (
          u === undefined ||
          u.origin === 'null' ||
          u.pathname !== '/' ||
          u.search ||
          u.hash ||
          u.username
        ) {
          ctx.addIssue({
            code: 'custom',
            message: `expected origins like https://example.com (scheme, host, optional port), got "${item}"`,
          });
          return z.NEVER;
        }
        const origin = u.origin;
        origins.push(origin);
      }
      return origins;
    }),
});

type Env = z.output<typeof envSchema>;

export interface Config {
  readonly env: Env['NODE_ENV'];
  readonly isProduction: boolean;
  readonly port: number;
  readonly host: string;
  /** Absolute path of the world directory. */
  readonly worldDir: string;
  readonly manifestsDir: string;
  readonly modelsDir: string;
  readonly database: {
    readonly url: string | undefined;
    /** Where the embedded PGlite database lives when no DATABASE_URL is set. */
    readonly pgliteDataDir: string;
    readonly useLocalPostgres: boolean;
  };
  readonly auth: {
    /**
     * Undefined only outside production: a random secret is then generated once and kept in
     * `<WORLD>/.data/jwt-secret` (net/auth/session-tokens.ts resolveJwtSecret).
     */
    readonly jwtSecret: string | undefined;
    readonly adminCode: string | undefined;
    readonly idp: {
      /** The identity provider counts as configured when IDP_APP_ID is set (contract §3.2). */
      readonly configured: boolean;
      readonly appId: string | undefined;
      readonly publicAppId: string | undefined;
      readonly appSecret: string | undefined;
      readonly issuer: string;
      readonly jwksUrl: string | undefined;
      readonly verificationKey: string | undefined;
    };
    readonly wsAuthTimeoutMs: number;
  };
  readonly urls: {
    readonly cdn: string;
    readonly productionCdn: string | undefined;
    readonly api: string;
    readonly ws: string;
    readonly app: string | undefined;
    readonly client: string | undefined;
    readonly agent: string | undefined;
    readonly agentApi: string | undefined;
  };
  readonly agentPort: number;
  readonly voice: {
    /** VOICE_API_KEY, VOICE_API_SECRET and VOICE_URL are all set. */
    readonly enabled: boolean;
    /** The world's name in voice room names (`<world>-<areaId>`): the world directory's name. */
    readonly worldName: string;
    readonly apiKey: string | undefined;
    readonly apiSecret: string | undefined;
    readonly url: string | undefined;
  };
  readonly saveIntervalSeconds: number;
  readonly tickMs: number;
  /** Seconds between two completed home teleports. */
  readonly homeTeleportCooldownSeconds: number;
  readonly worldSeed: number;
  /** Several worlds on one database: this world's id, the NATS bus (undefined: one world), the lock TTL. */
  readonly worlds: {
    readonly worldId: number;
    readonly natsUrl: string | undefined;
    readonly natsPrefix: string;
    readonly lockTtlMs: number;
  };
  readonly rateLimit: { readonly disabled: boolean; readonly trustProxy: boolean };
  readonly skipManifests: boolean;
  readonly skipAssets: boolean;
  readonly ci: boolean;
  readonly commitHash: string | undefined;
  readonly logLevel: Env['LOG_LEVEL'];
  readonly metrics: {
    /** Port of the separate /metrics listener (0 = any free port); null = no separate listener. */
    readonly port: number | null;
    readonly host: string;
    /** Bearer token for /metrics; when set, /metrics is also served on the public port. */
    readonly token: string | undefined;
  };
  readonly limits: {
    readonly wsConnectionsPerAddress: number;
    readonly wsUnauthenticated: number;
    readonly httpBodyTimeoutMs: number;
    /** Origins allowed to open /ws from a browser: `*` any, a list, or undefined = the CORS allowlist. */
    readonly wsOrigins: '*' | readonly string[] | undefined;
  };
  /** PUBLIC_* settings only: what /env.js may expose. Built here so no secret can reach it. */
  readonly publicEnv: Readonly<Record<string, string>>;
}

export class ConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

const PUBLIC_KEYS = [
  'PUBLIC_IDP_APP_ID',
  'PUBLIC_CDN_URL',
  'PUBLIC_API_URL',
  'PUBLIC_WS_URL',
  'PUBLIC_APP_URL',
] as const;

/** Parse and check the environment. Throws ConfigError naming every problem at once. */
export function loadConfig(source: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): Config {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((i) => `${i.path.join('.') || 'environment'}: ${i.message}`),
    );
  }
  const e = parsed.data;
  const problems: string[] = [];
  const production = e.NODE_ENV === 'production';

  if (production) {
    const required = [
      'DATABASE_URL',
      'JWT_SECRET',
      'ADMIN_CODE',
      'PUBLIC_IDP_APP_ID',
      'IDP_APP_ID',
      'IDP_APP_SECRET',
    ] as const;
    for (const key of required) {
      if (e[key] === undefined) problems.push(`${key} is required in production`);
    }
    if (e.DISABLE_RATE_LIMIT) problems.push('DISABLE_RATE_LIMIT=true is not allowed in production');
    if (e.USE_LOCAL_POSTGRES) problems.push('USE_LOCAL_POSTGRES is for development only');
    if (e.JWT_SECRET !== undefined && e.JWT_SECRET.length < 32) {
      problems.push('JWT_SECRET must be at least 32 characters in production');
    }
    if (e.METRICS_TOKEN !== undefined && e.METRICS_TOKEN.length < 32) {
      problems.push('METRICS_TOKEN must be at least 32 characters in production');
    }
    if (e.METRICS_PORT !== null && !isLoopback(e.METRICS_HOST) && e.METRICS_TOKEN === undefined) {
      problems.push(
        `METRICS_HOST=${e.METRICS_HOST} exposes /metrics beyond this machine: set METRICS_TOKEN too in production`,
      );
    }
    if (e.ALLOWED_WS_ORIGINS === '*') problems.push('ALLOWED_WS_ORIGINS=* is not allowed in production');
  }
  if (e.METRICS_PORT !== null && e.METRICS_PORT !== 0 && e.METRICS_PORT === e.PORT) {
    problems.push('METRICS_PORT must differ from PORT (or be "off" and METRICS_TOKEN set)');
  }
  // If either application id is set, both must be, and equal (contract §3.2), in every environment.
  if (
    (e.IDP_APP_ID !== undefined || e.PUBLIC_IDP_APP_ID !== undefined) &&
    e.IDP_APP_ID !== e.PUBLIC_IDP_APP_ID
  ) {
    if (e.IDP_APP_ID === undefined || e.PUBLIC_IDP_APP_ID === undefined) {
      if (!production) problems.push('IDP_APP_ID and PUBLIC_IDP_APP_ID must be set together');
    } else {
      problems.push('IDP_APP_ID must equal PUBLIC_IDP_APP_ID');
    }
  }
  if (e.IDP_APP_ID !== undefined && e.IDP_JWKS_URL === undefined && e.IDP_VERIFICATION_KEY === undefined) {
    problems.push(
      'IDP_APP_ID is set but neither IDP_JWKS_URL nor IDP_VERIFICATION_KEY is: tokens cannot be verified',
    );
  }
  // Voice chat is on with all three settings. In production a partial set is a mistake that would
  // silently turn voice off: refused. Elsewhere it just means voice off.
  const voiceSet = [e.VOICE_API_KEY, e.VOICE_API_SECRET, e.VOICE_URL].filter((v) => v !== undefined).length;
  if (production && voiceSet !== 0 && voiceSet !== 3) {
    problems.push('VOICE_API_KEY, VOICE_API_SECRET and VOICE_URL must be set together (or none: voice off)');
  }
  if (e.VOICE_URL !== undefined && !/^(wss?|https?):\/\//.test(e.VOICE_URL)) {
    problems.push('VOICE_URL must be a ws://, wss://, http:// or https:// address of the voice server');
  }
  if (production && e.VOICE_URL !== undefined && !/^(wss|https):\/\//.test(e.VOICE_URL)) {
    problems.push('VOICE_URL must use wss:// (or https://) in production');
  }
  if (production && e.VOICE_API_SECRET !== undefined && e.VOICE_API_SECRET.length < 32) {
    problems.push('VOICE_API_SECRET must be at least 32 characters in production');
  }
  if (problems.length > 0) throw new ConfigError(problems);

  const worldDir = path.resolve(cwd, e.WORLD);
  const defaults = publicUrlDefaults(e.PORT);
  const apiUrl = e.PUBLIC_API_URL ?? defaults.api;
  const wsUrl = e.PUBLIC_WS_URL ?? defaults.ws;
  const publicEnv: Record<string, string> = {};
  for (const key of PUBLIC_KEYS) {
    const value = key === 'PUBLIC_API_URL' ? apiUrl : key === 'PUBLIC_WS_URL' ? wsUrl : e[key];
    if (value !== undefined) publicEnv[key] = value;
  }

  const config: Config = {
    env: e.NODE_ENV,
    isProduction: production,
    port: e.PORT,
    host: e.HOST,
    worldDir,
    manifestsDir: path.join(worldDir, 'assets', 'manifests'),
    modelsDir: path.join(worldDir, 'assets', 'models'),
    database: {
      url: e.DATABASE_URL,
      pgliteDataDir: e.PGLITE_DATA_DIR
        ? path.resolve(cwd, e.PGLITE_DATA_DIR)
        : path.join(worldDir, '.data', 'pglite'),
      useLocalPostgres: e.USE_LOCAL_POSTGRES,
    },
    auth: {
      jwtSecret: e.JWT_SECRET,
      adminCode: e.ADMIN_CODE,
      idp: {
        configured: e.IDP_APP_ID !== undefined,
        appId: e.IDP_APP_ID,
        publicAppId: e.PUBLIC_IDP_APP_ID,
        appSecret: e.IDP_APP_SECRET,
        issuer: e.IDP_ISSUER,
        jwksUrl: e.IDP_JWKS_URL,
        verificationKey: e.IDP_VERIFICATION_KEY,
      },
      wsAuthTimeoutMs: e.WS_AUTH_TIMEOUT_SECONDS * 1000,
    },
    urls: {
      cdn: e.PUBLIC_CDN_URL as string,
      productionCdn: e.PRODUCTION_CDN_URL,
      api: apiUrl,
      ws: wsUrl,
      app: e.PUBLIC_APP_URL,
      client: e.CLIENT_URL,
      agent: e.AGENT_URL,
      agentApi: e.AGENT_API_URL,
    },
    agentPort: e.AGENT_PORT,
    voice: {
      enabled: voiceSet === 3,
      apiKey: e.VOICE_API_KEY,
      apiSecret: e.VOICE_API_SECRET,
      url: e.VOICE_URL,
      worldName: path.basename(worldDir),
    },
    saveIntervalSeconds: e.SAVE_INTERVAL,
    tickMs: e.TICK_MS,
    homeTeleportCooldownSeconds: e.HOME_TELEPORT_COOLDOWN,
    worldSeed: e.WORLD_SEED,
    worlds: {
      worldId: e.WORLD_ID,
      natsUrl: e.NATS_URL,
      natsPrefix: e.NATS_SUBJECT_PREFIX,
      lockTtlMs: e.WORLD_LOCK_TTL_SECONDS * 1000,
    },
    rateLimit: { disabled: e.DISABLE_RATE_LIMIT && !production, trustProxy: e.TRUST_PROXY },
    skipManifests: e.SKIP_MANIFESTS,
    skipAssets: e.SKIP_ASSETS,
    ci: e.CI,
    commitHash: e.COMMIT_HASH,
    logLevel: e.LOG_LEVEL,
    metrics: { port: e.METRICS_PORT, host: e.METRICS_HOST, token: e.METRICS_TOKEN },
    limits: {
      wsConnectionsPerAddress: e.WS_MAX_CONNECTIONS_PER_ADDRESS,
      wsUnauthenticated: e.WS_MAX_UNAUTHENTICATED,
      httpBodyTimeoutMs: e.HTTP_BODY_TIMEOUT_SECONDS * 1000,
      wsOrigins: e.ALLOWED_WS_ORIGINS,
    },
    publicEnv: Object.freeze(publicEnv),
  };
  return deepFreeze(config);
}

/** PUBLIC_API_URL and PUBLIC_WS_URL when unset: this server on localhost, at the port it listens on. */
export function publicUrlDefaults(port: number): { api: string; ws: string } {
  return { api: `http://localhost:${port}`, ws: `ws://localhost:${port}/ws` };
}

/**
 * The configuration as the listening server sees it. With PORT=0 (any free port: tests, tools) the
 * defaults of the public URLs could only say port 0 until the port was chosen: they name it now.
 * Anything set explicitly, and any other PORT, is returned unchanged.
 */
export function withListenPort(config: Config, port: number): Config {
  if (config.port !== 0 || port === 0) return config;
  const unknown = publicUrlDefaults(0);
  const known = publicUrlDefaults(port);
  const fix = (u: string) => (u === unknown.api ? known.api : u === unknown.ws ? known.ws : u);
  const publicEnv = Object.fromEntries(Object.entries(config.publicEnv).map(([k, v]) => [k, fix(v)]));
  return deepFreeze({
    ...config,
    urls: { ...config.urls, api: fix(config.urls.api), ws: fix(config.urls.ws) },
    publicEnv,
  });
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}
