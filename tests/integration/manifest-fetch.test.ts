import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../lib/config.ts';
import { ETAGS_FILE, ensureManifests } from '../../world/fetch.ts';
import { loadContent } from '../../world/loader.ts';
import { defaultManifests } from '../fixtures/content/paths.ts';

/** A real asset host on 127.0.0.1 serving the default world, whose answers each test can bend. */
interface Host {
  url: string;
  files: Map<string, string>;
  /** Per path: what to do instead of serving the file. */
  override: Map<string, 'error500' | 'hang' | 'corrupt' | 'invalid'>;
  requests: { path: string; ifNoneMatch: string | undefined }[];
  offerIndex: boolean;
  close(): Promise<void>;
}

const etagOf = (text: string) => `"${createHash('sha1').update(text).digest('hex')}"`;

async function startHost(): Promise<Host> {
  const files = new Map<string, string>();
  for (const rel of await readdir(defaultManifests, { recursive: true })) {
    if (rel.endsWith('.json')) files.set(rel, await readFile(path.join(defaultManifests, rel), 'utf8'));
  }
  const host: Partial<Host> = { files, override: new Map(), requests: [], offerIndex: true };
  const hanging = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    const rel = decodeURIComponent((req.url ?? '').replace(/^\/manifests\//, ''));
    host.requests?.push({ path: rel, ifNoneMatch: req.headers['if-none-match'] });
    if (rel === 'index.json') {
      if (!host.offerIndex) return void res.writeHead(404).end();
      return void res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify([...files.keys()]));
    }
    const mode = host.override?.get(rel);
    if (mode === 'hang') return void hanging.add(res);
    if (mode === 'error500') return void res.writeHead(500).end('boom');
    if (mode === 'corrupt') return void res.writeHead(200, { etag: '"bad"' }).end('{"half": ');
    if (mode === 'invalid') return void res.writeHead(200, { etag: '"inv"' }).end('[{"id": "x"}]');
    const text = files.get(rel);
    if (text === undefined) return void res.writeHead(404).end();
    const etag = etagOf(text);
    if (req.headers['if-none-match'] === etag) return void res.writeHead(304, { etag }).end();
    res.writeHead(200, { etag, 'content-type': 'application/json' }).end(text);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  host.url = `http://127.0.0.1:${port}`;
  host.close = async () => {
    for (const r of hanging) r.destroy();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return host as Host;
}

/** A URL where nothing listens: a port we bound and released. */
async function deadUrl(): Promise<string> {
  const s = http.createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

const production = {
  NODE_ENV: 'production',
  DATABASE_URL: 'postgres://x@127.0.0.1/test',
  JWT_SECRET: 'x'.repeat(40),
  ADMIN_CODE: 'admin-code',
  PUBLIC_IDP_APP_ID: 'app',
  IDP_APP_ID: 'app',
  IDP_APP_SECRET: 'secret',
  IDP_JWKS_URL: 'http://127.0.0.1:1/jwks',
};

const logs: string[] = [];
const logger = {
  info: (m: string) => logs.push(`info ${m}`),
  warn: (m: string) => logs.push(`warn ${m}`),
  error: (m: string) => logs.push(`error ${m}`),
};

let host: Host;
let world: string;
beforeAll(async () => {
  host = await startHost();
});
afterAll(async () => {
  await host.close();
});
afterEach(async () => {
  host.override.clear();
  host.requests.length = 0;
  host.offerIndex = true;
  logs.length = 0;
  await rm(world, { recursive: true, force: true });
});

async function newWorld() {
  world = await mkdtemp(path.join(os.tmpdir(), 'world-'));
  return world;
}
const configFor = (env: Record<string, string>) => loadConfig({ WORLD: world, ...env }, '/');
const manifests = () => path.join(world, 'assets', 'manifests');

describe('ensureManifests in production', () => {
  it('downloads every file with its ETag, then revalidates with If-None-Match (304: nothing written)', async () => {
    await newWorld();
    const config = configFor({ ...production, PUBLIC_CDN_URL: host.url });
    const first = await ensureManifests({ config, logger });
    expect(first.source).toBe('fetched');
    expect(first.updated.sort()).toEqual([...host.files.keys()].sort());
    const etags = JSON.parse(await readFile(path.join(manifests(), ETAGS_FILE), 'utf8'));
    expect(etags['npcs.json']).toBe(etagOf(host.files.get('npcs.json')!));
    await expect(loadContent(manifests())).resolves.toBeDefined();

    const before = (await stat(path.join(manifests(), 'npcs.json'))).mtimeMs;
    host.requests.length = 0;
    const second = await ensureManifests({ config, logger });
    expect(second).toEqual({ source: 'fetched', updated: [] });
    const npcReq = host.requests.find((r) => r.path === 'npcs.json');
    expect(npcReq?.ifNoneMatch).toBe(etags['npcs.json']);
    expect((await stat(path.join(manifests(), 'npcs.json'))).mtimeMs).toBe(before);
  });

  it('rewrites only the files that changed', async () => {
    await newWorld();
    const config = configFor({ ...production, PUBLIC_CDN_URL: host.url });
    await ensureManifests({ config, logger });
    const original = host.files.get('biomes.json')!;
    const changed = JSON.parse(original);
    changed[0].name = 'Renamed';
    host.files.set('biomes.json', JSON.stringify(changed));
    try {
      const r = await ensureManifests({ config, logger });
      expect(r.updated).toEqual(['biomes.json']);
      expect(await readFile(path.join(manifests(), 'biomes.json'), 'utf8')).toContain('Renamed');
    } finally {
      host.files.set('biomes.json', original);
    }
  });

  it.each([
    ['a 500', 'error500'],
    ['a corrupt body', 'corrupt'],
    ['a body that fails its schema', 'invalid'],
    ['a time-out', 'hang'],
  ] as const)('keeps the cached copy on %s', async (_name, mode) => {
    await newWorld();
    const config = configFor({ ...production, PUBLIC_CDN_URL: host.url });
    await ensureManifests({ config, logger });
    const cached = await readFile(path.join(manifests(), 'stores.json'), 'utf8');
    // Force a download attempt: the cache's ETag no longer matches.
    await writeFile(path.join(manifests(), ETAGS_FILE), '{}');
    host.override.set('stores.json', mode);
    const r = await ensureManifests({ config, logger, timeoutMs: 300 });
    expect(r.updated).not.toContain('stores.json');
    expect(await readFile(path.join(manifests(), 'stores.json'), 'utf8')).toBe(cached);
    expect(logs.join('\n')).toMatch(/warn manifests: stores\.json: .*keeping cache/);
    const leftovers = (await readdir(manifests())).filter((f) => f.endsWith('.tmp'));
    expect(leftovers).toEqual([]);
  });

  it('uses the cache when the host is down', async () => {
    await newWorld();
    await ensureManifests({ config: configFor({ ...production, PUBLIC_CDN_URL: host.url }), logger });
    const r = await ensureManifests({
      config: configFor({ ...production, PUBLIC_CDN_URL: await deadUrl() }),
      logger,
    });
    expect(r).toEqual({ source: 'cache', updated: [] });
    expect(logs.join('\n')).toMatch(/unreachable/);
    await expect(loadContent(manifests())).resolves.toBeDefined();
  });

  it('uses the cache when the host does not answer in time', async () => {
    await newWorld();
    await ensureManifests({ config: configFor({ ...production, PUBLIC_CDN_URL: host.url }), logger });
    // A host that accepts connections but never answers.
    const slow = http.createServer(() => {});
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(slow.address() as AddressInfo).port}`;
      const r = await ensureManifests({
        config: configFor({ ...production, PUBLIC_CDN_URL: url }),
        logger,
        timeoutMs: 200,
      });
      expect(r.source).toBe('cache');
    } finally {
      slow.closeAllConnections();
      await new Promise<void>((resolve) => slow.close(() => resolve()));
    }
  });

  it('asks for the known list when the host offers no index.json', async () => {
    await newWorld();
    host.offerIndex = false;
    const r = await ensureManifests({
      config: configFor({ ...production, PUBLIC_CDN_URL: host.url }),
      logger,
    });
    expect(r.updated).toContain('npcs.json');
    expect(r.updated).toContain('items/weapons.json');
    expect(host.requests.some((q) => q.path === 'lod-settings.json')).toBe(true);
  });
});

describe('ensureManifests in development', () => {
  it('does not fetch when local manifests exist', async () => {
    await newWorld();
    await ensureManifests({ config: configFor({ ...production, PUBLIC_CDN_URL: host.url }), logger });
    host.requests.length = 0;
    const r = await ensureManifests({ config: configFor({ PUBLIC_CDN_URL: host.url }), logger });
    expect(r).toEqual({ source: 'cache', updated: [] });
    expect(host.requests).toEqual([]);
  });

  it('fetches when none exist, falling back to PRODUCTION_CDN_URL when the local host is down', async () => {
    await newWorld();
    const config = configFor({ PUBLIC_CDN_URL: await deadUrl(), PRODUCTION_CDN_URL: host.url });
    const r = await ensureManifests({ config, logger });
    expect(r.source).toBe('fetched');
    expect(r.updated).toContain('world-areas.json');
    await expect(loadContent(manifests())).resolves.toBeDefined();
  });

  it('SKIP_MANIFESTS=true skips fetching entirely', async () => {
    await newWorld();
    const r = await ensureManifests({
      config: configFor({ PUBLIC_CDN_URL: host.url, SKIP_MANIFESTS: 'true' }),
      logger,
    });
    expect(r).toEqual({ source: 'skipped', updated: [] });
    expect(host.requests).toEqual([]);
  });
});
