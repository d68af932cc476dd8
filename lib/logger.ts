import { type Logger, pino } from 'pino';
import type { Config } from './config.ts';

export type { Logger };

/**
 * Keys that may carry credentials, redacted wherever they appear (top level or one level down).
 * Request logs never include headers or query strings in the first place; this is the safety net.
 */
const SECRET_KEYS = [
  'authorization',
  'Authorization',
  'token',
  'authToken',
  'sessionToken',
  'idpToken',
  'accessToken',
  'refreshToken',
  'password',
  'secret',
  'jwtSecret',
  'appSecret',
  'adminCode',
  'apiKey',
  'apiSecret',
  'cookie',
];

export const REDACT_PATHS = [
  ...SECRET_KEYS,
  ...SECRET_KEYS.map((k) => `*.${k}`),
  'headers.authorization',
  'req.headers.authorization',
];

/** JSON lines on stdout (pipe through `npx pino-pretty` to read them in development). */
export function createLogger(
  config: Pick<Config, 'logLevel' | 'env'>,
  destination?: pino.DestinationStream,
): Logger {
  const options: pino.LoggerOptions = {
    level: config.logLevel,
    base: { env: config.env },
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    timestamp: pino.stdTimeFunctions.isoTime,
  };
  return destination ? pino(options, destination) : pino(options);
}
