import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SKILLS } from '../../ecs/core/skills.ts';
import { dataRoutes } from '../../net/routes/data.ts';
import { manifestRoutes } from '../../net/routes/manifests.ts';
import { loadContent } from '../../world/loader.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

// The project's default world, served through the real HTTP pipeline (contract §3.5).
const manifestsDir = path.resolve(import.meta.dirname, '../../world/assets/manifests');

describe('manifests and skill unlocks over HTTP', () => {
  let server: TestServer;

  beforeAll(async () => {
    const registry = await loadContent(manifestsDir);
    server = await startTestServer(
      {},
      { routes: [...manifestRoutes(manifestsDir), ...dataRoutes(registry)] },
    );
  });
  afterAll(() => server?.stop());

  it('serves a nested manifest with the cache header, an ETag, and 304 on a match', async () => {
    const res = await fetch(`${server.url}/manifests/items/weapons.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=300, must-revalidate');
    const etag = res.headers.get('etag');
    expect(etag).toBeTruthy();
    expect(Array.isArray(await res.json())).toBe(true);
    const again = await fetch(`${server.url}/manifests/items/weapons.json`, {
      headers: { 'if-none-match': etag as string },
    });
    expect(again.status).toBe(304);
  });

  it.each([
    '/manifests/../package.json',
    '/manifests/%2e%2e/package.json',
    '/manifests/..%2fpackage.json',
    '/manifests/nope.json',
  ])('%s is a 404 problem', async (p) => {
    const res = await fetch(`${server.url}${p}`);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(await res.text()).not.toContain('"dependencies"');
  });

  it('answers the skill unlock map with every one of the 17 skills, publicly', async () => {
    const res = await fetch(`${server.url}/api/data/skill-unlocks`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, { level: number; description: string; type: string }[]>;
    expect(Object.keys(body).sort()).toEqual([...SKILLS].sort());
    for (const entries of Object.values(body)) {
      for (const e of entries) expect(['item', 'ability', 'area', 'quest', 'activity']).toContain(e.type);
    }
  });
});
