import { describe, expect, it } from 'vitest';
import { buildCorsRules, corsHeaders, matchOrigin, STATIC_CORS_RULES } from '../../net/http/cors.ts';

const urls = {
  cdn: 'http://localhost:8080',
  productionCdn: undefined,
  api: 'http://localhost:5555',
  ws: 'ws://localhost:5555/ws',
  app: 'https://play.example.com/game',
  client: 'https://client.example.org:8443',
  agent: 'http://agents.internal:4001',
  agentApi: 'https://agent-api.example.net',
};
const rules = buildCorsRules({ urls });

describe('CORS allowlist (contract §3.4): one case per rule', () => {
  it.each([
    [
      'localhost (any port, http or https)',
      ['http://localhost:3333', 'https://localhost', 'http://localhost:1'],
    ],
    ['127.0.0.1 (any port, http or https)', ['http://127.0.0.1:5555', 'https://127.0.0.1']],
    ['production frontend', ['https://hyperscape.club']],
    ['production frontend (www)', ['https://www.hyperscape.club']],
    ['production frontend (pages)', ['https://hyperscape.pages.dev']],
    ['production server', ['https://hyperscape-production.up.railway.app']],
    ['preview server (http fallback)', ['http://hyperscape-preview.up.railway.app']],
    [
      'frontend preview deployments',
      ['https://abc123.hyperscape.pages.dev', 'https://feat-x.hyperscape.pages.dev'],
    ],
    ['server preview deployments (https)', ['https://my-pr-42.up.railway.app']],
    ['Farcaster frames', ['https://client.farcaster.xyz', 'https://wallet.farcaster.xyz']],
    ['Warpcast', ['https://warpcast.com']],
    ['Warpcast subdomains', ['https://client.warpcast.com']],
    ['identity provider', ['https://auth.privy.io']],
    ['identity provider subdomains', ['https://embedded-wallets.privy.io']],
    ['PUBLIC_APP_URL', ['https://play.example.com']],
    ['CLIENT_URL', ['https://client.example.org:8443']],
    ['AGENT_URL', ['http://agents.internal:4001']],
    ['AGENT_API_URL', ['https://agent-api.example.net']],
  ])('%s allows its origins', (name, origins) => {
    for (const origin of origins) {
      // The first rule that matches is the one named (exact production entries come before patterns).
      const rule = matchOrigin(origin, rules);
      expect(rule, origin).toBeDefined();
      if (name !== 'production server') expect(rule!.name, origin).toBe(name);
    }
  });

  it.each([
    'https://evil.com',
    'http://hyperscape.club', // http of an https-only origin
    'https://hyperscape.club.evil.com',
    'https://evilhyperscape.club',
    'https://hyperscape.pages.dev.evil.com',
    'https://x.hyperscape.pages.dev:8443',
    'http://pr-1.up.railway.app', // server previews are https only
    'https://up.railway.app',
    'http://client.farcaster.xyz',
    'https://farcaster.xyz.evil.com',
    'https://notwarpcast.com',
    'http://auth.privy.io',
    'https://privy.io.evil.com',
    'http://localhost.evil.com',
    'http://127.0.0.1.evil.com',
    'http://agents.internal:4002', // the env origin's port is part of it
    'null',
    '',
  ])('refuses %j', (origin) => {
    expect(matchOrigin(origin, rules)).toBeUndefined();
    expect(corsHeaders(origin, rules)).toEqual({});
  });

  it('without env URLs, only the static list applies', () => {
    const bare = buildCorsRules({
      urls: { ...urls, app: undefined, client: undefined, agent: undefined, agentApi: undefined },
    });
    expect(bare).toEqual(STATIC_CORS_RULES);
    expect(matchOrigin('https://play.example.com', bare)).toBeUndefined();
  });

  it('echoes the origin with the four headers, never *', () => {
    const h = corsHeaders('https://hyperscape.club', rules);
    expect(h).toMatchObject({
      'Access-Control-Allow-Origin': 'https://hyperscape.club',
      'Access-Control-Allow-Credentials': 'true',
      'Access-Control-Allow-Methods': 'GET, PUT, POST, DELETE, OPTIONS, PATCH',
      'Access-Control-Allow-Headers': 'Content-Type, Authorization, X-Requested-With',
    });
    expect(Object.values(h)).not.toContain('*');
  });
});
