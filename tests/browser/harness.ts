import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { build } from 'vite';
import { expect } from 'vitest';
import { createLogger } from '../../lib/logger.ts';
import { REPO_ROOT } from '../../src/server.ts';
import { startWorldServer, type WorldServer } from '../../src/world-server.ts';
import { testConfig } from '../helpers/server.ts';

/**
 * What the browser tests share: a fresh build of client/ served by the real server on the default
 * world (embedded database in a temporary world directory), Debian's Chromium driven by playwright-core,
 * and helpers that click where the page itself says a tile is drawn (`window.__game.screenOf`).
 *
 * `.ci/run` installs the browser. Outside CI, without it, the tests are skipped with a message; in CI a
 * missing browser fails them.
 */

export const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
export const haveBrowser = existsSync(CHROMIUM);
export const inCi = Boolean(process.env['CI']);
export const skipBrowser = !haveBrowser && !inCi;
if (skipBrowser) {
  console.warn(
    `\n*** Browser tests SKIPPED: no Chromium at ${CHROMIUM}. Install it (apt-get install chromium) or set CHROMIUM_PATH. ***\n`,
  );
}

export const SHOTS = path.join(REPO_ROOT, 'test-results', 'browser');
/** A browser test plays a scene of several steps, each waiting on the server: room for a busy machine. */
export const BROWSER_TEST_MS = 120_000;
export const ADMIN_CODE = 'browser-admin-code';

export interface Harness {
  srv: WorldServer;
  browser: Browser;
  base: string;
  worldDir: string;
  publicDir: string;
  /** Stop the server (the world directory stays). */
  down(): Promise<void>;
  /** Start it again (after `down`, or stopping it now) on the same world directory. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * With `proxy`, the page talks to the server through a TCP proxy on a port of its own: `restart()` can
 * then bring the server back on another port at once (a restarted server cannot listen again on its
 * old port while the connections it closed linger in TIME_WAIT), and the page sees one address throughout.
 */
export async function startHarness(name: string, opts: { proxy?: boolean } = {}): Promise<Harness> {
  const worldDir = mkdtempSync(path.join(os.tmpdir(), `browser-${name}-`));
  const out = path.join(worldDir, 'public');
  mkdirSync(SHOTS, { recursive: true });
  await build({
    configFile: path.join(REPO_ROOT, 'client', 'vite.config.ts'),
    logLevel: 'error',
    build: { outDir: out, emptyOutDir: true },
  });
  const env = {
    WORLD: worldDir,
    TICK_MS: '100',
    JWT_SECRET: 'integration-test-secret-0123456789-abcdefghij',
    ADMIN_CODE,
    DISABLE_RATE_LIMIT: 'true',
  };
  const start = async () => {
    const config = testConfig(env);
    return startWorldServer(config, createLogger(config), {
      manifestsDir: path.join(REPO_ROOT, 'world', 'assets', 'manifests'),
      publicDir: out,
    });
  };
  let up = true;
  const proxy = opts.proxy
    ? net.createServer((client) => {
        if (!up) {
          client.destroy();
          return;
        }
        const server = net.connect(h.srv.port, '127.0.0.1');
        client.pipe(server).pipe(client);
        const end = () => {
          client.destroy();
          server.destroy();
        };
        client.on('error', end).on('close', end);
        server.on('error', end).on('close', end);
      })
    : undefined;
  if (proxy) await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const h: Harness = {
    srv: await start(),
    browser: await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] }),
    base: '',
    worldDir,
    publicDir: out,
    async down() {
      up = false;
      await h.srv.stop();
    },
    async restart() {
      if (up) await h.srv.stop();
      h.srv = await start();
      up = true;
    },
    async stop() {
      await h.browser?.close();
      await h.srv?.stop();
      proxy?.close();
      rmSync(worldDir, { recursive: true, force: true });
    },
  };
  const port = proxy ? (proxy.address() as net.AddressInfo).port : h.srv.port;
  h.base = `http://127.0.0.1:${port}`;
  return h;
}

/** A new browser context on the client, logged in as `name` (a new character), its page once in the world. */
export async function open(h: Harness, name: string, viewport = { width: 1200, height: 760 }): Promise<Page> {
  const context = await h.browser.newContext({ viewport });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${h.base}/?name=${name}`);
  await page.waitForFunction('document.body.dataset.position !== undefined', null, { timeout: 20_000 });
  expect(errors).toEqual([]);
  return page;
}

export const position = async (page: Page) => {
  const [x, z] = (((await page.evaluate('document.body.dataset.position')) as string | undefined) ?? '')
    .split(',')
    .map(Number);
  return { x: x as number, z: z as number };
};

/** Click the tile (x, z) where the page draws it now. */
export async function clickAt(page: Page, x: number, z: number): Promise<void> {
  const p = (await page.evaluate(`window.__game.screenOf(${x}, ${z})`)) as { x: number; y: number };
  await page.mouse.click(p.x, p.y);
}

/** Let drawn positions settle on the tiles, then click (x, z). */
export async function clickTile(page: Page, x: number, z: number): Promise<void> {
  await page.waitForTimeout(600);
  await clickAt(page, x, z);
}

export const chatText = async (page: Page) => (await page.locator('#chat-log').textContent()) ?? '';

/** Send a chat line (a command when it starts with `/`). */
export async function say(page: Page, text: string): Promise<void> {
  await page.fill('#chat-input', text);
  await page.press('#chat-input', 'Enter');
}

/** Become an admin and teleport to (x, z). */
export async function adminTo(page: Page, x: number, z: number): Promise<void> {
  if (!(await chatText(page)).includes('Admin commands enabled.')) {
    await say(page, `/admin ${ADMIN_CODE}`);
    await expect.poll(() => chatText(page)).toContain('Admin commands enabled.');
  }
  await say(page, `/tp ${x} ${z}`);
  await expect.poll(() => position(page), { timeout: 10_000 }).toEqual({ x, z });
}

const chunks = new Map<string, { x: number; z: number; size: number; tiles: string }>();
export async function walkable(h: Harness, tx: number, tz: number): Promise<boolean> {
  const key = `${Math.floor(tx / 64)},${Math.floor(tz / 64)}`;
  let c = chunks.get(key);
  if (!c) {
    const res = await fetch(`${h.base}/api/map/chunk/${Math.floor(tx / 64)}/${Math.floor(tz / 64)}`);
    c = (await res.json()) as { x: number; z: number; size: number; tiles: string };
    chunks.set(key, c);
  }
  return c.tiles[(tz - c.z) * c.size + (tx - c.x)] === '0';
}

/** A walkable tile 2..4 tiles (Chebyshev) from (x, z), read from the map API the client uses. */
export async function walkableNear(
  h: Harness,
  x: number,
  z: number,
  min = 2,
): Promise<{ x: number; z: number }> {
  for (let r = min; r <= 4; r++) {
    for (let dz = -r; dz <= r; dz++) {
      for (let dx = -r; dx <= r; dx++) {
        if (Math.max(Math.abs(dx), Math.abs(dz)) === r && (await walkable(h, x + dx, z + dz)))
          return { x: x + dx, z: z + dz };
      }
    }
  }
  throw new Error(`no walkable tile near ${x}, ${z}`);
}

/** The first entity in this page's view that matches (a JS predicate on `v`), or null. */
export const find = async (page: Page, predicate: string) =>
  (await page.evaluate(
    `(() => { const e = [...window.__game.state.entities.values()].find((v) => ${predicate}); return e ? { id: e.id, x: e.x, z: e.z } : null; })()`,
  )) as { id: string; x: number; z: number } | null;

/** Click an entity (read again before each try: NPCs wander) until its menu offers `label`, then pick it. */
export async function actOn(page: Page, id: string, label: string | RegExp): Promise<void> {
  for (let attempt = 0; attempt < 15; attempt++) {
    await page.waitForTimeout(600);
    const e = await find(page, `v.id === ${JSON.stringify(id)}`);
    if (!e) throw new Error(`${id} left the view`);
    await clickAt(page, e.x, e.z);
    const button = page.locator(`#menu button[data-target="${id}"]`, { hasText: label });
    if (await button.isVisible()) {
      await button.click();
      return;
    }
    // Missed (it moved): hide the menu so it does not cover the next click.
    await page.evaluate("document.getElementById('menu').classList.add('hidden')");
  }
  throw new Error(`no ${String(label)} on ${id}`);
}

/** Open the menu of an inventory slot holding `itemId` and pick `label`. */
export async function itemMenu(page: Page, itemId: string, label: string | RegExp): Promise<void> {
  await page.locator('#tabs button[data-tab="inventory"]').click();
  await page.locator(`#panel-inventory .slot[data-item="${itemId}"]`).first().click();
  await page.locator('#menu button', { hasText: label }).click();
}

export const inventoryCount = (page: Page, itemId: string) =>
  page.evaluate(
    `window.__game.state.me.inventory.reduce((n, s) => n + (s && s.itemId === ${JSON.stringify(itemId)} ? s.quantity : 0), 0)`,
  ) as Promise<number>;

export const shot = (page: Page, name: string) => page.screenshot({ path: path.join(SHOTS, `${name}.png`) });
