import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../lib/logger.ts';
import { REPO_ROOT } from '../../src/server.ts';
import { startWorldServer, type WorldServer } from '../../src/world-server.ts';
import { testConfig } from '../helpers/server.ts';

/**
 * The web client in a real headless Chromium (Debian's `chromium` package, driven by playwright-core)
 * against the real server serving a fresh build of client/: it loads, logs in and shows the player,
 * walks on a click, chats, two players see each other walk, and they complete a trade through the two
 * trade screens. A screenshot of each step goes to test-results/browser/ (not committed).
 *
 * `.ci/run` installs the browser. Outside CI, without it, the tests are skipped with a message; in CI
 * a missing browser fails them.
 */

const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
const haveBrowser = existsSync(CHROMIUM);
const inCi = Boolean(process.env['CI']);
if (!haveBrowser && !inCi) {
  console.warn(
    `\n*** Browser tests SKIPPED: no Chromium at ${CHROMIUM}. Install it (apt-get install chromium) or set CHROMIUM_PATH. ***\n`,
  );
}

const SHOTS = path.join(REPO_ROOT, 'test-results', 'browser');
const TILE = 28; // client/src/render.ts

let worldDir: string;
let publicDir: string;
let srv: WorldServer;
let browser: Browser;
let base: string;

describe.skipIf(!haveBrowser && !inCi)('web client in headless Chromium', () => {
  beforeAll(async () => {
    worldDir = mkdtempSync(path.join(os.tmpdir(), 'browser-world-'));
    publicDir = path.join(worldDir, 'public');
    mkdirSync(SHOTS, { recursive: true });
    await build({
      configFile: path.join(REPO_ROOT, 'client', 'vite.config.ts'),
      logLevel: 'error',
      build: { outDir: publicDir, emptyOutDir: true },
    });
    const config = testConfig({
      WORLD: worldDir,
      TICK_MS: '100',
      JWT_SECRET: 'integration-test-secret-0123456789-abcdefghij',
      ADMIN_CODE: 'browser-admin-code',
      DISABLE_RATE_LIMIT: 'true',
    });
    srv = await startWorldServer(config, createLogger(config), {
      manifestsDir: path.join(REPO_ROOT, 'world', 'assets', 'manifests'),
      publicDir,
    });
    base = `http://127.0.0.1:${srv.port}`;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await srv?.stop();
    if (worldDir) rmSync(worldDir, { recursive: true, force: true });
  });

  async function open(name: string): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 1100, height: 760 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${base}/?name=${name}`);
    await page.waitForFunction('document.body.dataset.position !== undefined', null, { timeout: 20_000 });
    expect(errors).toEqual([]);
    return page;
  }

  const position = async (page: Page) => {
    const [x, z] = (((await page.evaluate('document.body.dataset.position')) as string | undefined) ?? '')
      .split(',')
      .map(Number);
    return { x: x as number, z: z as number };
  };

  /** Where another entity's tile is on this page's canvas, once its drawn position has settled. */
  async function clickTile(page: Page, x: number, z: number): Promise<void> {
    await page.waitForTimeout(600); // let the drawn positions settle on the tiles
    const me = await position(page);
    const box = await page.locator('#view').boundingBox();
    if (!box) throw new Error('no canvas');
    await page.mouse.click(
      box.x + Math.floor(box.width) / 2 + (x - me.x) * TILE,
      box.y + Math.floor(box.height) / 2 + (z - me.z) * TILE,
    );
  }

  /** Where this page's client sees the player named `name`, or null (read from the client's state). */
  const sees = async (page: Page, name: string) =>
    (await page.evaluate(
      `(() => { const e = [...window.__game.state.entities.values()].find((v) => v.name === ${JSON.stringify(name)}); return e ? { x: e.x, z: e.z } : null; })()`,
    )) as { x: number; z: number } | null;

  /** A station of this type in this page's view (read from the client's state), or null. */
  const station = async (page: Page, type: string) =>
    (await page.evaluate(
      `(() => { const e = [...window.__game.state.entities.values()].find((v) => v.stationType === ${JSON.stringify(type)}); return e ? { x: e.x, z: e.z } : null; })()`,
    )) as { x: number; z: number } | null;

  it('loads, logs in, shows the player, walks on a click and chats; the session survives a reload', async () => {
    const page = await open('Walker');
    await expect.poll(() => page.locator('#status').textContent()).toMatch(/Walker at \d+, \d+/);
    await expect.poll(() => page.locator('#me').textContent()).toMatch(/Walker \(level 3\)/);
    await expect.poll(() => page.locator('#status').textContent(), { timeout: 10_000 }).toMatch(/players 1/);
    expect(await page.locator('#panel-inventory .slot:not(.empty)').count()).toBeGreaterThan(0);
    // The player's own entity came in world:update and is drawn where the status line says.
    expect(await sees(page, 'Walker')).toEqual(await position(page));
    await page.screenshot({ path: path.join(SHOTS, '1-logged-in.png') });

    const from = await position(page);
    await clickTile(page, from.x + 3, from.z + 2);
    await expect.poll(() => position(page), { timeout: 10_000 }).toEqual({ x: from.x + 3, z: from.z + 2 });
    await page.screenshot({ path: path.join(SHOTS, '2-walked.png') });

    await page.fill('#chat-input', 'hello from the browser');
    await page.press('#chat-input', 'Enter');
    await expect
      .poll(() => page.locator('#chat-log').textContent())
      .toContain('Walker: hello from the browser');
    await page.screenshot({ path: path.join(SHOTS, '3-chat.png') });

    // The session token kept in localStorage logs the same character in again.
    const token = await page.evaluate("localStorage.getItem('hyperscape.sessionToken')");
    expect(token).toBeTruthy();
    await page.goto(`${base}/`);
    await page.waitForFunction('document.body.dataset.position !== undefined', null, { timeout: 20_000 });
    await expect.poll(() => page.locator('#status').textContent()).toMatch(/^Walker at/);
    await page.context().close();
  });

  it('two players see each other walk and chat, then trade through both screens', async () => {
    const alice = await open('Alice');
    const bob = await open('Bobby');
    await expect.poll(() => sees(alice, 'Bobby'), { timeout: 10_000 }).not.toBeNull();
    await expect.poll(() => sees(bob, 'Alice'), { timeout: 10_000 }).not.toBeNull();

    const a0 = await position(alice);
    await clickTile(alice, a0.x + 2, a0.z);
    await expect.poll(() => sees(bob, 'Alice'), { timeout: 10_000 }).toEqual({ x: a0.x + 2, z: a0.z });
    await bob.screenshot({ path: path.join(SHOTS, '4-bob-sees-alice.png') });

    await alice.fill('#chat-input', 'hi Bobby');
    await alice.press('#chat-input', 'Enter');
    await expect.poll(() => bob.locator('#chat-log').textContent()).toContain('Alice: hi Bobby');
    await bob.fill('#chat-input', '@Alice just you and me');
    await bob.press('#chat-input', 'Enter');
    await expect
      .poll(() => alice.locator('#chat-log').textContent())
      .toContain('From Bobby: just you and me');
    await expect.poll(() => bob.locator('#chat-log').textContent()).toContain('To Alice: just you and me');

    // Alice asks Bobby to trade by clicking him.
    const b = await position(bob);
    await clickTile(alice, b.x, b.z);
    await alice.locator('#menu button', { hasText: 'Trade with Bobby' }).click();
    await bob.locator('#notice button', { hasText: 'Accept trade' }).click();
    await expect
      .poll(() => alice.locator('[data-testid=trade-title]').textContent())
      .toBe('Trading with Bobby');
    await expect
      .poll(() => bob.locator('[data-testid=trade-title]').textContent())
      .toBe('Trading with Alice');

    // Alice offers her first inventory item; Bobby sees it in Alice's offer.
    const offeredId = await alice.locator('#panel-inventory .slot[data-slot="0"]').getAttribute('data-item');
    await alice.locator('#panel-inventory .slot[data-slot="0"]').click();
    await alice.locator('#menu button', { hasText: 'Offer' }).click();
    // The client shows `bronze_sword` as `Bronze sword`.
    const itemName = (offeredId ?? '?').replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase());
    await expect.poll(() => bob.locator('[data-testid=their-offer]').textContent()).toContain(itemName);
    await alice.screenshot({ path: path.join(SHOTS, '5-offer-screen.png') });

    await alice.locator('[data-testid=trade-accept]').click();
    await bob.locator('[data-testid=trade-accept]').click();
    await expect
      .poll(() => bob.locator('[data-testid=trade-title]').textContent())
      .toBe('Confirm trade with Alice');
    await bob.screenshot({ path: path.join(SHOTS, '6-confirm-screen.png') });
    await alice.locator('[data-testid=trade-accept]').click();
    await bob.locator('[data-testid=trade-accept]').click();

    await expect
      .poll(() => bob.locator('#chat-log').textContent())
      .toContain(`You received: 1 × ${itemName}`);
    await expect.poll(() => alice.locator('#chat-log').textContent()).toContain('Trade completed');
    await expect.poll(() => bob.locator('#trade').isHidden()).toBe(true);
    await bob.screenshot({ path: path.join(SHOTS, '7-trade-completed.png') });
    await alice.context().close();
    await bob.context().close();
  });

  it('opens the bank from a bank booth and deposits an inventory item', async () => {
    const page = await open('Saver');
    await expect.poll(() => station(page, 'bank'), { timeout: 10_000 }).not.toBeNull();
    const bank = (await station(page, 'bank')) as { x: number; z: number };
    // Walk halfway first so the booth is well inside the drawn view, then click it.
    const from = await position(page);
    const mid = { x: Math.round((from.x + bank.x) / 2), z: Math.round((from.z + bank.z) / 2) + 1 };
    await clickTile(page, mid.x, mid.z);
    await expect.poll(() => position(page), { timeout: 10_000 }).toEqual(mid);
    await clickTile(page, bank.x, bank.z);
    await page.locator('#menu button', { hasText: /^Bank$/ }).click();
    await expect.poll(() => page.locator('#bank').isVisible(), { timeout: 10_000 }).toBe(true);

    const itemId = await page.locator('#panel-inventory .slot[data-slot="0"]').getAttribute('data-item');
    await page.locator('#panel-inventory .slot[data-slot="0"]').click();
    await page.locator('#menu button', { hasText: 'Deposit' }).click();
    await expect.poll(() => page.locator(`#bank .slot[data-item="${itemId}"]`).count()).toBe(1);
    await expect
      .poll(() => page.locator('#panel-inventory .slot[data-slot="0"]').getAttribute('data-item'))
      .not.toBe(itemId);
    await page.screenshot({ path: path.join(SHOTS, '8-bank.png') });
    await page.context().close();
  });
});
