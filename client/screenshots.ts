import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { build } from 'vite';
import { loadConfig } from '../lib/config.ts';
import { createLogger } from '../lib/logger.ts';
import { REPO_ROOT } from '../lib/repo-root.ts';
import { startWorldServer } from '../src/world-server.ts';

/**
 * `npm run docs:screenshots`: the gallery of docs/client.md, taken from the real client against a real
 * server on the default world (a fresh build, an embedded database in a temporary directory, Chromium
 * at CHROMIUM_PATH or /usr/bin/chromium). Scenes are set with admin commands. Writes docs/images/client-*.png.
 */

const OUT = path.join(REPO_ROOT, 'docs', 'images');
const ADMIN = 'screenshots-admin-code';

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'client-shots-'));
  const publicDir = path.join(dir, 'public');
  await build({
    configFile: path.join(REPO_ROOT, 'client', 'vite.config.ts'),
    logLevel: 'error',
    build: { outDir: publicDir, emptyOutDir: true },
  });
  const config = loadConfig({
    NODE_ENV: 'test',
    HOST: '127.0.0.1',
    PORT: '0',
    METRICS_PORT: '0',
    LOG_LEVEL: 'silent',
    WORLD: dir,
    TICK_MS: '300',
    JWT_SECRET: 'screenshots-secret-0123456789-abcdefghijklmn',
    ADMIN_CODE: ADMIN,
    DISABLE_RATE_LIMIT: 'true',
  });
  const srv = await startWorldServer(config, createLogger(config), {
    manifestsDir: path.join(REPO_ROOT, 'world', 'assets', 'manifests'),
    publicDir,
  });
  const browser = await chromium.launch({
    executablePath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium',
    args: ['--no-sandbox'],
  });
  mkdirSync(OUT, { recursive: true });
  const base = `http://127.0.0.1:${srv.port}`;
  try {
    const page = await browser.newPage({ viewport: { width: 1000, height: 640 } });
    await page.goto(`${base}/?name=Wren`);
    await page.waitForFunction('window.__game.connected() && document.body.dataset.position !== undefined');
    await settle(page);
    await save(
      page,
      'client-1-spawn',
      'At spawn: the town, its paths, the quest giver marked ! and the hint below the stage.',
    );

    await clickEntity(page, "v.npcId === 'guide_wren'", 'Talk to Guide Wren');
    await page.waitForSelector('#dialogue:not(.hidden)');
    await page.locator('#dialogue button', { hasText: 'What should I do first?' }).click();
    await settle(page);
    await save(
      page,
      'client-6-guide',
      'Guide Wren at the spawn says what to do first; the dialogue opens beside the stage.',
    );
    await page.locator('#dialogue button', { hasText: 'Thanks.' }).click();

    await say(page, `/admin ${ADMIN}`);
    await say(page, '/tp 597 609');
    await settle(page);
    await clickEntity(page, "v.npcId === 'trader_odalys'", 'Trade with Trader Odalys');
    await page.waitForSelector('#shop:not(.hidden)');
    await settle(page);
    await save(
      page,
      'client-2-shop',
      'The market square: banker, shopkeepers, the vault; a shop opens beside the stage.',
    );
    await page.locator('#shop button', { hasText: 'Close' }).click();

    await say(page, '/tp 596 568');
    await page.locator('#panel-inventory .slot[data-item="tinderbox"]').click();
    await page.locator('#menu button', { hasText: 'Use Tinderbox' }).click();
    await settle(page);
    await save(
      page,
      'client-3-ford',
      'The ford: fishing spots in the water, Angler Mags, marsh rats by level; an item picked with Use.',
    );
    await page.keyboard.press('Escape');

    // The boars of the first quest only fight back; the wolf comes for anyone near.
    await say(page, '/tp 664 598');
    await say(page, '/level constitution 40');
    await say(page, '/heal');
    await say(page, '/spawn thornback_boar');
    await say(page, '/spawn ash_wolf');
    await clickEntity(page, "v.npcId === 'thornback_boar'", 'Attack Thornback Boar');
    await page.waitForTimeout(2500);
    await save(
      page,
      'client-4-fight',
      'A fight in the Ashwood: health bars, hit splats, labels kept apart, xp drops.',
    );

    await say(page, '/tp 602 596');
    await page.locator('#tabs button[data-tab="magic"]').click();
    await page.locator('[data-testid=home-teleport]').click();
    await page.waitForTimeout(900);
    await save(
      page,
      'client-5-teleport',
      'The Magic tab: spells to autocast and the home teleport casting, with its bar over the player.',
    );
  } finally {
    await browser.close();
    await srv.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function settle(page: Page): Promise<void> {
  await page.waitForTimeout(1500);
}

async function say(page: Page, text: string): Promise<void> {
  await page.fill('#chat-input', text);
  await page.press('#chat-input', 'Enter');
  await page.waitForTimeout(700);
}

/** Click an entity where the page draws it, and pick a menu entry. */
async function clickEntity(page: Page, predicate: string, label: string): Promise<void> {
  for (let i = 0; i < 10; i++) {
    const at = (await page.evaluate(
      `(() => { const e = [...window.__game.state.entities.values()].find((v) => ${predicate}); return e ? window.__game.screenOf(e.x, e.z) : null; })()`,
    )) as { x: number; y: number } | null;
    if (at) {
      await page.mouse.click(at.x, at.y);
      const b = page.locator('#menu button', { hasText: label });
      if (await b.isVisible()) return b.click();
    }
    await page.waitForTimeout(500);
  }
  throw new Error(`no ${label}`);
}

async function save(page: Page, name: string, caption: string): Promise<void> {
  const file = path.join(OUT, `${name}.png`);
  await page.screenshot({ path: file });
  console.log(`${path.relative(REPO_ROOT, file)} (${Math.round(statSync(file).size / 1024)} KB): ${caption}`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
