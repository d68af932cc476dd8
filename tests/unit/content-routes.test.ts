import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SKILLS } from '../../ecs/core/skills.ts';
import { HttpError, type HttpRequest, type HttpResponse, type RouteDef } from '../../net/http/types.ts';
import { dataRoutes, skillUnlockMapSchema } from '../../net/routes/data.ts';
import { manifestRoutes } from '../../net/routes/manifests.ts';
import { ContentError } from '../../world/content-error.ts';
import { loadContent } from '../../world/loader.ts';
import {
  copyManifests,
  defaultManifests,
  editJson,
  referenceAvailable,
  referenceManifests,
  removeDir,
} from '../fixtures/content/paths.ts';

function request(rest: string, headers: Record<string, string> = {}): HttpRequest {
  return {
    method: 'GET',
    path: `/manifests/${rest}`,
    params: { '*': rest },
    query: new URLSearchParams(),
    headers,
    body: undefined,
    ip: '127.0.0.1',
    requestId: 'test',
    auth: undefined,
  };
}

async function call(route: RouteDef, rest: string, headers?: Record<string, string>): Promise<HttpResponse> {
  return route.handler(request(rest, headers));
}

describe('GET /manifests/*', () => {
  let base: string;
  let dir: string;
  let route: RouteDef;
  beforeAll(async () => {
    base = await mkdtemp(path.join(os.tmpdir(), 'manifest-route-'));
    dir = path.join(base, 'manifests');
    await mkdir(path.join(dir, 'items'), { recursive: true });
    await writeFile(path.join(dir, 'npcs.json'), '[{"id":"a"}]');
    await writeFile(path.join(dir, 'items', 'weapons.json'), '[{"id":"w"}]');
    await writeFile(path.join(dir, 'notes.txt'), 'not json');
    await writeFile(path.join(dir, '.etags.json'), '{}');
    await writeFile(path.join(base, 'secret.json'), '{"secret":true}');
    await symlink(path.join(base, 'secret.json'), path.join(dir, 'escape.json'));
    await symlink(path.join(dir, 'npcs.json'), path.join(dir, 'alias.json'));
    const routes = manifestRoutes(dir);
    expect(routes).toHaveLength(1);
    route = routes[0]!;
    expect(route).toMatchObject({ method: 'GET', path: '/manifests/*' });
  });
  afterAll(async () => {
    await rm(base, { recursive: true, force: true });
  });

  it('serves a nested manifest with cache headers and a strong ETag', async () => {
    const res = await call(route, 'items/weapons.json');
    expect(res.status).toBe(200);
    expect(Buffer.from(res.body as Buffer).toString()).toBe('[{"id":"w"}]');
    expect(res.headers?.['Cache-Control']).toBe('public, max-age=300, must-revalidate');
    expect(res.headers?.['Content-Type']).toBe('application/json');
    expect(res.headers?.['ETag']).toMatch(/^"[^"]+"$/);
  });

  it('answers 304 on a matching If-None-Match (also in a list or weak), 200 otherwise', async () => {
    const etag = (await call(route, 'npcs.json')).headers?.['ETag'] as string;
    for (const header of [etag, `"other", ${etag}`, `W/${etag}`, '*']) {
      const res = await call(route, 'npcs.json', { 'if-none-match': header });
      expect(res.status).toBe(304);
      expect(res.body).toBeUndefined();
      expect(res.headers?.['ETag']).toBe(etag);
    }
    expect((await call(route, 'npcs.json', { 'if-none-match': '"stale"' })).status).toBe(200);
  });

  it('changes the ETag when the contents change', async () => {
    const before = (await call(route, 'npcs.json')).headers?.['ETag'];
    await writeFile(path.join(dir, 'npcs.json'), '[{"id":"a"},{"id":"b"}]');
    const after = await call(route, 'npcs.json');
    expect(after.headers?.['ETag']).not.toBe(before);
    expect((await call(route, 'npcs.json', { 'if-none-match': before as string })).status).toBe(200);
  });

  it('follows a symlink that stays inside the directory', async () => {
    expect((await call(route, 'alias.json')).status).toBe(200);
  });

  it.each([
    '../secret.json',
    'items/../../secret.json',
    '..%2fsecret.json',
    '%2e%2e/secret.json',
    '%2E%2E%2Fsecret.json',
    '%252e%252e%252fsecret.json',
    '/etc/passwd',
    `${'/'.repeat(2)}etc/hosts.json`,
    'escape.json',
    'notes.txt',
    '.etags.json',
    'items',
    'missing.json',
    'items\\..\\..\\secret.json',
    'C:/secret.json',
    '%zz.json',
    '',
  ])('refuses %j with 404', async (rest) => {
    const err = await Promise.resolve()
      .then(() => call(route, rest))
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(err).toBeInstanceOf(HttpError);
    expect((err as HttpError).status).toBe(404);
  });
});

describe('GET /api/data/skill-unlocks', () => {
  it('has a key for every one of the 17 skills and valid entries (default world)', async () => {
    const [route] = dataRoutes(await loadContent(defaultManifests));
    expect(route).toMatchObject({
      method: 'GET',
      path: '/api/data/skill-unlocks',
      auth: 'none',
      rateLimit: 'rest',
    });
    const res = await route!.handler(request(''));
    expect(res.status).toBe(200);
    const body = skillUnlockMapSchema.parse(res.body);
    expect(Object.keys(body).sort()).toEqual([...SKILLS].sort());
    for (const s of SKILLS) expect(body[s].length).toBeGreaterThan(0);
  });

  it('gives empty arrays where nothing unlocks, and rejects unknown unlock types at load', async () => {
    const dir = await copyManifests();
    try {
      await editJson(dir, 'skill-unlocks.json', (d) => {
        d.skills = { defence: [{ level: 5, description: 'Shields', type: 'item' }] };
      });
      const [route] = dataRoutes(await loadContent(dir));
      const body = (await route!.handler(request(''))).body as Record<string, unknown[]>;
      expect(Object.keys(body)).toHaveLength(17);
      expect(body['defense']).toEqual([{ level: 5, description: 'Shields', type: 'item' }]);
      expect(body['defence']).toBeUndefined();
      expect(body['mining']).toEqual([]);

      await editJson(dir, 'skill-unlocks.json', (d) => {
        d.skills.defence[0].type = 'spell';
      });
      const err = await loadContent(dir).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ContentError);
      expect((err as ContentError).message).toMatch(
        /skill-unlocks\.json: entry skills\.defence\[0\], field type: /,
      );
    } finally {
      await removeDir(dir);
    }
  });

  it.runIf(referenceAvailable())('serves the reference unlocks with `defence` as `defense`', async () => {
    const registry = await loadContent(referenceManifests);
    const [route] = dataRoutes(registry);
    const body = skillUnlockMapSchema.parse((await route!.handler(request(''))).body);
    expect(body.defense.length).toBeGreaterThan(0);
    expect(Object.keys(body)).toHaveLength(17);
  });
});
