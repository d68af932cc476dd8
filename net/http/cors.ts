import type { Config } from '../../lib/config.ts';

/**
 * Cross-origin allowlist (specification "Cross-origin rules", contract §3.4), written as data: each rule
 * is an exact origin or an anchored pattern, with a name the tests and docs refer to.
 */

export type CorsRule =
  | { readonly name: string; readonly exact: string }
  | { readonly name: string; readonly pattern: RegExp };

const sub = String.raw`(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+`;

export const STATIC_CORS_RULES: readonly CorsRule[] = [
  { name: 'localhost (any port, http or https)', pattern: /^https?:\/\/localhost(?::\d{1,5})?$/ },
  { name: '127.0.0.1 (any port, http or https)', pattern: /^https?:\/\/127\.0\.0\.1(?::\d{1,5})?$/ },
  { name: 'production frontend', exact: 'https://hyperscape.club' },
  { name: 'production frontend (www)', exact: 'https://www.hyperscape.club' },
  { name: 'production frontend (pages)', exact: 'https://hyperscape.pages.dev' },
  { name: 'production server', exact: 'https://hyperscape-production.up.railway.app' },
  { name: 'preview server (http fallback)', exact: 'http://hyperscape-preview.up.railway.app' },
  {
    name: 'frontend preview deployments',
    pattern: new RegExp(String.raw`^https://${sub}hyperscape\.pages\.dev$`),
  },
  {
    name: 'server preview deployments (https)',
    pattern: new RegExp(String.raw`^https://${sub}up\.railway\.app$`),
  },
  { name: 'Farcaster frames', pattern: new RegExp(String.raw`^https://${sub}farcaster\.xyz$`) },
  { name: 'Warpcast', exact: 'https://warpcast.com' },
  { name: 'Warpcast subdomains', pattern: new RegExp(String.raw`^https://${sub}warpcast\.com$`) },
  { name: 'identity provider', exact: 'https://auth.privy.io' },
  { name: 'identity provider subdomains', pattern: new RegExp(String.raw`^https://${sub}privy\.io$`) },
];

/** The static list plus the origins of PUBLIC_APP_URL, CLIENT_URL, AGENT_URL and AGENT_API_URL. */
export function buildCorsRules(config: Pick<Config, 'urls'>): CorsRule[] {
  const rules: CorsRule[] = [...STATIC_CORS_RULES];
  const named: [string, string | undefined][] = [
    ['PUBLIC_APP_URL', config.urls.app],
    ['CLIENT_URL', config.urls.client],
    ['AGENT_URL', config.urls.agent],
    ['AGENT_API_URL', config.urls.agentApi],
  ];
  for (const [name, value] of named) {
    const origin = originOf(value);
    if (origin !== undefined) rules.push({ name, exact: origin });
  }
  return rules;
}

function originOf(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  try {
    const origin = new URL(url).origin;
    return origin === 'null' ? undefined : origin;
  } catch {
    return undefined;
  }
}

/** The rule that allows `origin`, or undefined. Origins compare case-insensitively (host names are). */
export function matchOrigin(origin: string, rules: readonly CorsRule[]): CorsRule | undefined {
  if (origin.length === 0 || origin.length > 2048) return undefined;
  const o = origin.toLowerCase();
  return rules.find((r) => ('exact' in r ? r.exact.toLowerCase() === o : r.pattern.test(o)));
}

export const CORS_ALLOW_METHODS = 'GET, PUT, POST, DELETE, OPTIONS, PATCH';
export const CORS_ALLOW_HEADERS = 'Content-Type, Authorization, X-Requested-With';

/** Headers for an allowed origin (never `*`); empty for a refused or absent one. */
export function corsHeaders(origin: string, rules: readonly CorsRule[]): Record<string, string> {
  if (!origin || matchOrigin(origin, rules) === undefined) return {};
  return {
    'Access-Control-Allow-Origin': origin,
    'Access-Control-Allow-Credentials': 'true',
    'Access-Control-Allow-Methods': CORS_ALLOW_METHODS,
    'Access-Control-Allow-Headers': CORS_ALLOW_HEADERS,
    Vary: 'Origin',
  };
}
