import { mkdtemp, readFile, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { syncModels } from '../../world/assets/sync.ts';

const models = new Map<string, Buffer>([
  ['stations/anvil/anvil.glb', Buffer.from('glb-anvil')],
  ['trees/pine_01.glb', Buffer.from('glb-pine')],
]);
let index: unknown = [...models.keys(), '../escape.glb', 'readme.txt'];
const seen: { url: string; inm: string | undefined }[] = [];

const server = http.createServer((req, res) => {
  const rel = decodeURIComponent((req.url ?? '').replace(/^\/models\//, ''));
  seen.push({ url: rel, inm: req.headers['if-none-match'] });
  if (rel === 'index.json') return void res.writeHead(200).end(JSON.stringify(index));
  const body = models.get(rel);
  if (!body) return void res.writeHead(404).end();
  const etag = `"${body.length}-${body.toString('hex').slice(0, 8)}"`;
  if (req.headers['if-none-match'] === etag) return void res.writeHead(304).end();
  res.writeHead(200, { etag }).end(body);
});
let url: string;
let dir: string;
const logs: string[] = [];
const logger = {
  info: (m: string) => logs.push(m),
  warn: (m: string) => logs.push(m),
  error: (m: string) => logs.push(m),
};

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});
afterEach(async () => {
  seen.length = 0;
  logs.length = 0;
  await rm(dir, { recursive: true, force: true });
});

describe('syncModels (asset sync build step)', () => {
  it('mirrors the listed .glb files, ignores unsafe entries, and revalidates with ETags', async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'models-'));
    const first = await syncModels({ cdnUrl: url, modelsDir: dir, logger });
    expect(first.status).toBe('synced');
    expect(first.downloaded.sort()).toEqual([...models.keys()].sort());
    expect(await readFile(path.join(dir, 'stations/anvil/anvil.glb'), 'utf8')).toBe('glb-anvil');
    expect(seen.some((s) => s.url.includes('escape'))).toBe(false);
    expect(logs.join('\n')).toMatch(/ignoring unsafe/);

    seen.length = 0;
    const second = await syncModels({ cdnUrl: url, modelsDir: dir, logger });
    expect(second.downloaded).toEqual([]);
    expect(seen.filter((s) => s.url.endsWith('.glb')).every((s) => s.inm !== undefined)).toBe(true);
  });

  it('reports an unreachable host without throwing', async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'models-'));
    const r = await syncModels({ cdnUrl: 'http://127.0.0.1:1', modelsDir: dir, logger });
    expect(r.status).toBe('unreachable');
  });

  it('reports a host without a usable index', async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'models-'));
    const saved = index;
    index = { nope: true };
    try {
      expect((await syncModels({ cdnUrl: url, modelsDir: dir, logger })).status).toBe('unlisted');
    } finally {
      index = saved;
    }
  });
});
