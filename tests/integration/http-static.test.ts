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

describe('a client build made while the server runs', () => {
  let root: string;
  let web: TestServer;
  beforeAll(async () => {
    root = mkdtempSync(path.join(tmpdir(), 'static-late-'));
    // The directory does not exist when the server starts (as before the first `npm run build:client`).
    web = await startTestServer({}, { publicDir: path.join(root, 'public') });
  });
  afterAll(async () => {
    await web.stop();
    rmSync(root, { recursive: true, force: true });
  });

  it('is served without a restart, and a rebuild replaces it at once', async () => {
    expect((await fetch(`${web.url}/`)).status).toBe(404);
    const dir = path.join(root, 'public');
    mkdirSync(path.join(dir, 'assets'), { recursive: true });
    writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>first build</title>');
    writeFileSync(path.join(dir, 'assets', 'a1.js'), 'first()');
    const first = await fetch(`${web.url}/`);
    expect(first.status).toBe(200);
    // The page is revalidated on every visit: a later build reaches browsers at once.
    expect(first.headers.get('cache-control')).toBe('no-cache');
    expect(await first.text()).toContain('first build');
    expect(await (await fetch(`${web.url}/assets/a1.js`)).text()).toBe('first()');

    // A rebuild empties the directory and writes new files (Vite's emptyOutDir).
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(path.join(dir, 'assets'), { recursive: true });
    writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>second build</title>');
    writeFileSync(path.join(dir, 'assets', 'b2.js'), 'second()');
    expect(await (await fetch(`${web.url}/`)).text()).toContain('second build');
    expect(await (await fetch(`${web.url}/play`)).text()).toContain('second build');
    expect((await fetch(`${web.url}/assets/a1.js`)).status).toBe(404);
    expect(await (await fetch(`${web.url}/assets/b2.js`)).text()).toBe('second()');
  });
});
