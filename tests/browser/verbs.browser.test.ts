import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  actOn,
  adminTo,
  BROWSER_TEST_MS,
  chatText,
  clickTile,
  find,
  type Harness,
  inventoryCount,
  itemMenu,
  open,
  position,
  say,
  shot,
  skipBrowser,
  startHarness,
  walkableNear,
} from './harness.ts';

/**
 * Every verb of the server through the client's menus and panels, in headless Chromium: an item used
 * on another (firemaking, fletching), on a station it walks to (cooking), on an NPC; the Make window
 * (tanning); examine texts; the spell panel (autocast with runes); the home teleport with its cast and
 * cooldown; running and run energy; logging out and in again.
 */

let h: Harness;

/** Click an inventory slot holding `itemId` (with an item picked by Use: use it on that one). */
const clickItem = (page: Page, itemId: string) =>
  page.locator(`#panel-inventory .slot[data-item="${itemId}"]`).first().click();

describe.skipIf(skipBrowser)('every verb in headless Chromium', { timeout: BROWSER_TEST_MS }, () => {
  beforeAll(async () => {
    h = await startHarness('verbs');
  }, 120_000);
  afterAll(async () => {
    await h?.stop();
  });

  it('uses an item on another: a tinderbox lights logs, a knife fletches them', async () => {
    const page = await open(h, 'Crafter');
    const spot = await walkableNear(h, 612, 596, 0);
    await adminTo(page, spot.x, spot.z);
    await say(page, '/give birch_logs 2');
    await expect.poll(() => inventoryCount(page, 'birch_logs')).toBe(2);

    await itemMenu(page, 'tinderbox', 'Use Tinderbox');
    await expect
      .poll(() => page.locator('[data-testid=using]').textContent())
      .toContain('Use Tinderbox with');
    await clickItem(page, 'birch_logs');
    await expect
      .poll(() => chatText(page), { timeout: 10_000 })
      .toContain('You light a fire with the Birch Logs.');
    await expect.poll(() => find(page, "v.stationType === 'fire'"), { timeout: 10_000 }).not.toBeNull();
    await shot(page, 'verbs-1-fire');

    await itemMenu(page, 'knife', 'Use Knife');
    await clickItem(page, 'birch_logs');
    await expect.poll(() => inventoryCount(page, 'arrow_shaft'), { timeout: 10_000 }).toBe(15);
    await expect.poll(() => chatText(page)).toContain('You make 15 × Arrow Shaft.');
    await page.context().close();
  });

  it('uses raw fish on a range it walks to, and an item on an NPC', async () => {
    const page = await open(h, 'Cook');
    const range = { x: 610, z: 616 };
    const start = await walkableNear(h, range.x - 4, range.z - 4, 0);
    await adminTo(page, start.x, start.z);
    await say(page, '/give raw_minnow 1');
    await expect.poll(() => inventoryCount(page, 'raw_minnow')).toBe(1);
    await expect.poll(() => find(page, "v.stationType === 'range'"), { timeout: 10_000 }).not.toBeNull();
    await itemMenu(page, 'raw_minnow', 'Use Raw Minnow');
    await clickTile(page, range.x, range.z);
    await page.locator('#menu button', { hasText: 'Use Raw Minnow on Cooking Range' }).click();
    // Walked there, then cooked: grilled, or burnt, and told either way.
    await expect.poll(() => inventoryCount(page, 'raw_minnow'), { timeout: 15_000 }).toBe(0);
    const me = await position(page);
    expect(Math.max(Math.abs(me.x - range.x), Math.abs(me.z - range.z))).toBeLessThanOrEqual(1);
    await expect
      .poll(() => chatText(page))
      .toMatch(/You make Grilled Minnow\.|You accidentally burn the food/);

    // An item on an NPC: the server's own answer, as a sentence.
    await say(page, '/give bones 1');
    await expect.poll(() => inventoryCount(page, 'bones')).toBe(1);
    const banker = (await find(page, "v.npcId === 'banker_ilse'")) as {
      id: string;
      x: number;
      z: number;
    } | null;
    const target = banker ?? ((await find(page, "v.type === 'npc'")) as { id: string; x: number; z: number });
    await itemMenu(page, 'bones', 'Use Bones');
    await actOn(page, target.id, /^Use Bones on /);
    await expect.poll(() => chatText(page), { timeout: 15_000 }).toContain('Nothing interesting happens.');
    await page.context().close();
  });

  it('makes from the inventory through the Make window (tanning costs coins); eats, wields, takes off; examines with the content words', async () => {
    const page = await open(h, 'Tanner');
    await adminTo(page, 600, 600);
    await say(page, '/give rawhide 1');
    await expect.poll(() => inventoryCount(page, 'rawhide')).toBe(1);
    const coins = (await page.evaluate('window.__game.state.me.coins')) as number;
    await itemMenu(page, 'rawhide', 'Make with Rawhide');
    await expect.poll(() => page.locator('#station h3').textContent()).toBe('Make');
    await page.locator('#station [data-recipe="leather"] button', { hasText: '1' }).first().click();
    await expect.poll(() => inventoryCount(page, 'leather'), { timeout: 10_000 }).toBe(1);
    await expect.poll(() => page.evaluate('window.__game.state.me.coins')).toBe(coins - 2);
    await expect.poll(() => chatText(page)).toContain('It costs you 2 coins.');

    // What an item is for: eat, wield, and take off again from the Worn tab.
    await itemMenu(page, 'barley_loaf', 'Eat Barley Loaf');
    await expect.poll(() => chatText(page), { timeout: 10_000 }).toContain('You eat the Barley Loaf.');
    await itemMenu(page, 'flint_hatchet', 'Wield Flint Hatchet');
    await expect.poll(() => chatText(page), { timeout: 10_000 }).toContain('You equip the Flint Hatchet.');
    await page.locator('#tabs button[data-tab="equipment"]').click();
    await page.locator('#panel-equipment [data-slot="weapon"]').click();
    await page.locator('#menu button', { hasText: 'Take off Flint Hatchet' }).click();
    await expect.poll(() => chatText(page), { timeout: 10_000 }).toContain('You take off the Flint Hatchet.');

    await itemMenu(page, 'flint_hatchet', 'Examine Flint Hatchet');
    await expect.poll(() => chatText(page)).toContain('A knapped flint head lashed to a haft.');
    const near = await walkableNear(h, 604, 590);
    await adminTo(page, near.x, near.z);
    const corvin = (await find(page, "v.npcId === 'warden_corvin'")) as { id: string };
    await actOn(page, corvin.id, 'Examine Warden Corvin');
    await expect
      .poll(() => chatText(page))
      .toContain('The town warden. The boars at the edge of the Ashwood are his worry.');
    await page.context().close();
  });

  it('sets a spell to autocast in the Magic tab and casts it with runes at a monster', async () => {
    const page = await open(h, 'Mage');
    const near = await walkableNear(h, 580, 568);
    await adminTo(page, near.x, near.z);
    await say(page, '/give gust_rune 20');
    await say(page, '/give mind_rune 20');
    await expect.poll(() => inventoryCount(page, 'mind_rune')).toBe(20);
    await page.locator('#tabs button[data-tab="magic"]').click();
    await page.locator('#panel-magic [data-spell="wind_strike"]').click();
    await expect
      .poll(() => page.locator('#panel-magic [data-spell="wind_strike"]').textContent())
      .toContain('autocast');
    await expect.poll(() => chatText(page)).toContain('You will cast Wind Strike when you attack.');
    await shot(page, 'verbs-2-magic');
    await expect.poll(() => find(page, "v.npcId === 'marsh_rat'"), { timeout: 10_000 }).not.toBeNull();
    const rat = (await find(page, "v.npcId === 'marsh_rat'")) as { id: string };
    await actOn(page, rat.id, 'Attack Marsh Rat');
    await expect.poll(() => inventoryCount(page, 'mind_rune'), { timeout: 20_000 }).toBeLessThan(20);
    await expect.poll(() => chatText(page), { timeout: 20_000 }).toMatch(/\+\d+ Magic|You killed Marsh Rat/);
    await page.context().close();
  });

  it('casts the home teleport with its progress, then shows the cooldown', async () => {
    const page = await open(h, 'Homebody');
    const away = await walkableNear(h, 620, 630, 0);
    await adminTo(page, away.x, away.z);
    await page.locator('#tabs button[data-tab="magic"]').click();
    await page.locator('[data-testid=home-teleport]').click();
    await expect
      .poll(() => page.locator('[data-testid=home-teleport]').textContent())
      .toMatch(/casting… \d+%/);
    await expect.poll(() => page.evaluate('window.__game.state.teleport !== null')).toBe(true);
    await shot(page, 'verbs-3-teleport');
    const map = (await (await fetch(`${h.base}/api/map`)).json()) as { spawn: { x: number; z: number } };
    await expect.poll(() => position(page), { timeout: 15_000 }).toEqual(map.spawn);
    await expect.poll(() => chatText(page)).toContain('You arrive home.');
    await page.locator('[data-testid=home-teleport]').click();
    await expect
      .poll(() => chatText(page))
      .toMatch(/You have to wait before doing that again\. Home teleport ready in \d+ seconds/);
    await expect
      .poll(() => page.locator('[data-testid=home-teleport]').textContent())
      .toMatch(/ready in \d+:\d\d/);
    await page.context().close();
  });

  it('runs when running is on; shows the run energy the server sends, and does without it', async () => {
    const page = await open(h, 'Runner');
    // The server sends `runEnergy` in player:sync: the switch says how much is left, a bar shows it.
    await expect.poll(() => page.locator('[data-testid=run-toggle]').textContent()).toBe('Run: off (100%)');
    await expect
      .poll(() => page.locator('[data-testid=run-energy]').textContent())
      .toBe('Run energy 100/100');
    const sent: string[] = [];
    page.on('websocket', (ws) => ws.on('framesent', (f) => sent.push(String(f.payload))));
    await page.reload();
    await page.waitForFunction('window.__game.connected()', null, { timeout: 20_000 });
    await page.locator('[data-testid=run-toggle]').click();
    await expect.poll(() => page.locator('[data-testid=run-toggle]').textContent()).toMatch(/^Run: on/);
    const from = await position(page);
    const to = await walkableNear(h, from.x + 12, from.z, 0);
    await clickTile(page, to.x, to.z);
    await expect
      .poll(() => sent.some((f) => f.includes('"player:move"') && f.includes('"run":true')))
      .toBe(true);
    // Running drains it.
    await expect
      .poll(() => page.locator('[data-testid=run-energy]').textContent(), { timeout: 20_000 })
      .not.toBe('Run energy 100/100');
    await page.context().close();

    // A server without run energy (no `runEnergy` in player:sync): the switch alone, no bar.
    const plain = await h.browser.newPage({ viewport: { width: 1200, height: 760 } });
    await plain.routeWebSocket(/\/ws/, (ws) => {
      const server = ws.connectToServer();
      ws.onMessage((m) => server.send(m));
      server.onMessage((m) => {
        const text = String(m);
        ws.send(text.startsWith('["player:sync"') ? text.replace(/,"runEnergy":\d+/, '') : m);
      });
    });
    await plain.goto(`${h.base}/?name=Stroller`);
    await expect
      .poll(() => plain.locator('[data-testid=run-toggle]').textContent(), { timeout: 20_000 })
      .toBe('Run: off');
    expect(await plain.locator('[data-testid=run-energy]').count()).toBe(0);
    await plain.context().close();
  });

  it('logs out (the character is saved and leaves), and logs in again to the same character', async () => {
    const page = await open(h, 'Leaver');
    const players = async () =>
      ((await (await fetch(`${h.base}/status`)).json()) as { playersOnline: number }).playersOnline;
    const before = await players();
    await page.locator('[data-testid=logout]').click();
    await expect.poll(() => page.evaluate('window.__game.phase()'), { timeout: 10_000 }).toBe('loggedOut');
    await expect
      .poll(() => page.locator('[data-testid=connection]').textContent())
      .toContain('You have logged out.');
    await expect.poll(players, { timeout: 10_000 }).toBe(before - 1);
    await shot(page, 'verbs-4-logged-out');
    await page.locator('[data-testid=connection] button', { hasText: 'Log in again' }).click();
    await expect.poll(() => page.evaluate('window.__game.phase()'), { timeout: 10_000 }).toBe('online');
    await expect.poll(() => page.locator('#status').textContent()).toMatch(/^Leaver at/);
    await page.context().close();
  });
});
