import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BROWSER_TEST_MS,
  chatText,
  type Harness,
  open,
  position,
  shot,
  skipBrowser,
  startHarness,
} from './harness.ts';

/**
 * Staying in, in headless Chromium: the server restarts under a connected page, which shows that it
 * is reconnecting and gets back into the same character with the session token; a second tab taking
 * the character over leaves the first saying so, without a fight over the connection.
 */

let h: Harness;

describe.skipIf(skipBrowser)('reconnection in headless Chromium', { timeout: BROWSER_TEST_MS }, () => {
  beforeAll(async () => {
    h = await startHarness('reconnect', { proxy: true });
  }, 120_000);
  afterAll(async () => {
    await h?.stop();
  });

  it('a server restart: the page shows it is reconnecting, then is back in the same character', async () => {
    const page = await open(h, 'Steadfast');
    const id = (await page.evaluate('window.__game.state.me.id')) as string;
    const at = await position(page);
    await expect.poll(() => page.evaluate('window.__game.connected()')).toBe(true);

    // Stop the server and keep it down a moment: the page must say so and keep trying.
    await h.down();
    await expect.poll(() => page.evaluate('window.__game.phase()'), { timeout: 10_000 }).toBe('reconnecting');
    await expect
      .poll(() => page.locator('[data-testid=connection]').textContent(), { timeout: 5000 })
      .toMatch(/Connection lost\. Reconnecting in \d+:\d\d \(attempt \d+\)/);
    await shot(page, 'reconnect-1-waiting');
    await page.waitForTimeout(1500);

    // The same world directory (database) and address: a restart.
    await h.restart();
    await expect.poll(() => page.evaluate('window.__game.phase()'), { timeout: 30_000 }).toBe('online');
    await expect.poll(() => page.locator('[data-testid=connection]').isHidden()).toBe(true);
    expect(await page.evaluate('window.__game.state.me.id')).toBe(id);
    await expect.poll(() => chatText(page)).toContain('Reconnected.');
    expect(await position(page)).toEqual(at);
    // The world is in view again after the restart.
    await expect
      .poll(
        () =>
          page.evaluate(
            `[...window.__game.state.entities.values()].some((e) => e.id === ${JSON.stringify(id)})`,
          ),
        {
          timeout: 10_000,
        },
      )
      .toBe(true);
    await page.context().close();
  });

  it('a takeover by another tab: the first says so and does not take it back', async () => {
    const first = await open(h, 'Twin');
    const second = await first.context().newPage();
    await second.goto(`${h.base}/`); // the same localStorage: the same token, the same character
    await second.waitForFunction('window.__game.connected()', null, { timeout: 20_000 });
    await expect.poll(() => first.evaluate('window.__game.phase()'), { timeout: 10_000 }).toBe('takenOver');
    await expect
      .poll(() => first.locator('[data-testid=connection]').textContent())
      .toContain('You logged in somewhere else');
    await first.waitForTimeout(3000);
    expect(await first.evaluate('window.__game.phase()')).toBe('takenOver');
    expect(await second.evaluate('window.__game.phase()')).toBe('online');
    await first.context().close();
  });
});
