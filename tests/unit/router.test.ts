import { describe, expect, it } from 'vitest';
import { Router } from '../../net/http/router.ts';
import type { HttpMethod, RouteDef } from '../../net/http/types.ts';

const r = (method: HttpMethod, path: string): RouteDef => ({ method, path, handler: () => ({}) });

describe('Router', () => {
  const router = new Router([
    r('GET', '/api/agents/:agentId/goal'),
    r('POST', '/api/agents/:agentId/goal'),
    r('GET', '/api/agents/mapping/:agentId'),
    r('GET', '/manifests/*'),
    r('GET', '/health'),
  ]);

  it('matches parameters', () => {
    const m = router.match('POST', '/api/agents/a-1/goal');
    expect(m.kind === 'found' && m.params).toEqual({ agentId: 'a-1' });
  });

  it('decodes each segment on its own: an encoded / stays inside its parameter', () => {
    const m = router.match('GET', '/api/agents/a%2Fb%20c/goal');
    expect(m.kind === 'found' && m.params).toEqual({ agentId: 'a/b c' });
  });

  it('literal segments win over parameters', () => {
    const m = router.match('GET', '/api/agents/mapping/a-9');
    expect(m.kind === 'found' && [m.route.path, m.params]).toEqual([
      '/api/agents/mapping/:agentId',
      { agentId: 'a-9' },
    ]);
  });

  it('a trailing * takes the rest of the path', () => {
    const m = router.match('GET', '/manifests/items/weapons.json');
    expect(m.kind === 'found' && m.params).toEqual({ '*': 'items/weapons.json' });
  });

  it('405 lists the methods of an existing path; 404 otherwise; a trailing slash is the same path', () => {
    expect(router.match('DELETE', '/api/agents/a/goal')).toEqual({
      kind: 'method-not-allowed',
      allowed: ['GET', 'POST'],
    });
    expect(router.match('GET', '/api/agents/a/nothing')).toEqual({ kind: 'not-found' });
    expect(router.match('GET', '/health/').kind).toBe('found');
    expect(router.match('GET', '/api/agents//goal').kind).toBe('not-found');
  });

  it('refuses duplicate routes and conflicting parameter names at start-up', () => {
    expect(() => new Router([r('GET', '/a'), r('GET', '/a')])).toThrow(/duplicate route GET \/a/);
    expect(() => new Router([r('GET', '/a/:x'), r('GET', '/a/:y/b')])).toThrow(/conflicting/);
  });
});
