import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { problemOf, rawHttp } from '../helpers/http.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

describe('static files from publicDir', () => {
  let root: string;
  let dir: string;
  let web: TestServer;
  beforeAll(async () => {
    root = mkdtempSync(path.join(tmpdir(), 'static-'));
    dir = path.join(root, 'public');
    mkdirSync(path.join(dir, 'assets'), { recursive: true });
    // A file just outside the served directory: traversal must never reach it.
    writeFileSync(path.join(root, 'package.json'), '{"leaked":true}');
    writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>game</title>');
    writeFileSync(path.join(dir, 'assets', 'app.js'), 'console.log(1)');
    writeFileSync(path.join(dir, 'assets', 'style.css'), 'body{}');
    web = await startTestServer({}, { publicDir: dir });
  });
  afterAll(async () => {
    await web.stop();
    rmSync(root, { recursive: true, force: true });
  });

  it.each([
    ['/', 'text/html; charset=utf-8', '<!doctype html>'],
    ['/assets/app.js', 'text/javascript; charset=utf-8', 'console.log(1)'],
    ['/assets/style.css', 'text/css; charset=utf-8', 'body{}'],
    ['/play/world/3', 'text/html; charset=utf-8', '<!doctype html>'],
  ])('GET %s → %s', async (p, type, start) => {
    const res = await fetch(`${web.url}${p}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(type);
    expect((await res.text()).startsWith(start)).toBe(true);
  });

  it('no index.html fallback for missing files or API paths', async () => {
    expect((await fetch(`${web.url}/assets/missing.js`)).status).toBe(404);
    const api = await fetch(`${web.url}/api/nothing`);
    expect(api.status).toBe(404);
    expect(await problemOf(api)).toMatchObject({ code: 'NOT_FOUND' });
  });

  it.each([
    '/../package.json',
    '/%2e%2e/package.json',
    '/assets/..%2f..%2fpackage.json',
    '/..%5c..%5cpackage.json',
  ])('refuses traversal %s', async (p) => {
    const raw = await rawHttp(web.port, `GET ${p} HTTP/1.1\r\nHost: x\r\n\r\n`);
    expect(raw).not.toContain('leaked');
    expect(raw).toMatch(/^HTTP\/1\.1 (404|400) /);
  });
});
