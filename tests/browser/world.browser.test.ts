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
  say,
  shot,
  skipBrowser,
  startHarness,
  walkableNear,
} from './harness.ts';

/**
 * The default world as a new player meets it, in headless Chromium: at the spawn a guide and a marked
 * quest giver are in view and the guide says what to do; the quests are taken, played and handed in
 * through the dialogue window, each NPC answering the quest as it stands on every talk (the done line on
 * the talk that completes it), and every item a quest gives or takes is told in the chat. A quest the
 * character may not start yet is refused in words and the conversation ends. Teleports and levels are
 * set with admin commands only to keep the scenes short (tests/integration/quest-playthrough.test.ts
 * plays the same quests without them).
 */

let h: Harness;

const dialogueText = async (page: Page) => (await page.locator('#dialogue').textContent()) ?? '';

/** Talk to the nearest NPC of this id (clicking it, then Talk), and wait for the window. */
async function talkTo(page: Page, npcId: string, name: string): Promise<void> {
  const npc = (await find(page, `v.npcId === '${npcId}'`)) as { id: string };
  expect(npc).not.toBeNull();
  await actOn(page, npc.id, `Talk to ${name}`);
  await page.waitForSelector('#dialogue:not(.hidden)');
}

const choose = (page: Page, text: string) => page.locator('#dialogue button', { hasText: text }).click();

describe.skipIf(skipBrowser)('the default world in headless Chromium', { timeout: BROWSER_TEST_MS }, () => {
  beforeAll(async () => {
    h = await startHarness('world');
  }, 120_000);
  afterAll(async () => {
    await h?.stop();
  });

  it('at the spawn a guide and a marked quest giver are in view; the guide says what to do first', async () => {
    const page = await open(h, 'Arrival');
    await expect.poll(() => find(page, "v.npcId === 'guide_wren'"), { timeout: 10_000 }).not.toBeNull();
    const corvin = (await find(page, "v.npcId === 'warden_corvin'")) as { id: string };
    expect(corvin).not.toBeNull();
    await expect
      .poll(
        () =>
          page.evaluate(
            `window.__game.frame.entities.find((e) => e.id === ${JSON.stringify(corvin.id)})?.mark ?? null`,
          ),
        { timeout: 10_000 },
      )
      .toBe('available');
    await talkTo(page, 'guide_wren', 'Guide Wren');
    await expect.poll(() => dialogueText(page)).toContain('Welcome to Emberfold Crossing!');
    await choose(page, 'What should I do first?');
    await expect.poll(() => dialogueText(page)).toContain('Warden Corvin, just north of here');
    await shot(page, 'world-1-guide');
    await page.context().close();
  });

  it('Boar Trouble: the dagger told and wielded, boars fought, the done line and the rewards told on the report', async () => {
    const page = await open(h, 'Boarhunter');
    await talkTo(page, 'warden_corvin', 'Warden Corvin');
    await choose(page, 'How can I help?');
    await choose(page, 'I will do it.');
    await expect.poll(() => dialogueText(page)).toContain('Take this dagger and wear it.');
    await expect
      .poll(() => chatText(page), { timeout: 10_000 })
      .toContain('Warden Corvin gives you Bronze Dagger.');
    await itemMenu(page, 'bronze_dagger', 'Wield Bronze Dagger');
    await expect.poll(() => chatText(page), { timeout: 10_000 }).toContain('You equip the Bronze Dagger.');
    // Talking again while the hunt is on: the current step, not the offer.
    await talkTo(page, 'warden_corvin', 'Warden Corvin');
    await expect.poll(() => dialogueText(page)).toContain('Still boars in the woods?');
    await page.locator('#dialogue button', { hasText: 'On my way.' }).click();

    const edge = await walkableNear(h, 664, 598, 0);
    await adminTo(page, edge.x, edge.z);
    // Short fights for a short test: the boars themselves are what a new character meets.
    await say(page, '/level attack 40');
    await say(page, '/level strength 40');
    // The fifth kill moves the quest on to its report: its line is the next step, not 5/5.
    for (let kill = 1; kill <= 5; kill++) {
      const boar = await (async () => {
        for (let i = 0; i < 30; i++) {
          const b = await find(page, "v.npcId === 'thornback_boar' && (v.health ?? 1) > 0");
          if (b) return b;
          await page.waitForTimeout(500);
        }
        throw new Error('no boar in view');
      })();
      await actOn(page, boar.id, 'Attack Thornback Boar');
      await expect
        .poll(() => chatText(page), { timeout: 30_000 })
        .toContain(
          kill < 5 ? `Boar Trouble: Defeat 5 thornback boars (${kill}/5)` : 'Report back to Warden Corvin',
        );
    }

    const warden = await walkableNear(h, 604, 590);
    await adminTo(page, warden.x, warden.z);
    await talkTo(page, 'warden_corvin', 'Warden Corvin');
    await expect.poll(() => dialogueText(page)).toContain('The woods are quieter.');
    expect(await dialogueText(page)).not.toContain('Still boars');
    await expect.poll(() => chatText(page), { timeout: 10_000 }).toContain('Quest complete: Boar Trouble!');
    await expect
      .poll(() => chatText(page), { timeout: 10_000 })
      .toContain("Warden Corvin gives you Founder's Token, 150 coins.");
    await shot(page, 'world-2-quest-done');
    await page.context().close();
  });

  it('First Catch: the net told, minnows fished by clicking, handed over in words on the talk that completes it', async () => {
    const page = await open(h, 'Angler');
    const ford = await walkableNear(h, 598, 572);
    await adminTo(page, ford.x, ford.z);
    await talkTo(page, 'angler_mags', 'Angler Mags');
    await choose(page, 'Any work for me?');
    await expect.poll(() => dialogueText(page)).toContain('Bring me five raw minnows');
    await expect
      .poll(() => chatText(page), { timeout: 10_000 })
      .toContain('Angler Mags gives you Fishing Net.');
    await page.locator('#dialogue button', { hasText: /^(Close|Continue)$/ }).click();
    const spot = (await find(page, "v.resourceId === 'spot_shallows'")) as {
      id: string;
      x: number;
      z: number;
    };
    const bank = await walkableNear(h, spot.x, spot.z, 1);
    await adminTo(page, bank.x, bank.z);
    // A resource alone on its tile is gathered on a click.
    await clickTile(page, spot.x, spot.z);
    await expect
      .poll(() => inventoryCount(page, 'raw_minnow'), { timeout: 60_000 })
      .toBeGreaterThanOrEqual(5);
    await talkTo(page, 'angler_mags', 'Angler Mags');
    await expect.poll(() => dialogueText(page)).toContain('Your casting has improved.');
    await expect
      .poll(() => chatText(page), { timeout: 10_000 })
      .toMatch(/You hand over \d+ × Raw Minnow to Angler Mags\./);
    await expect.poll(() => chatText(page), { timeout: 10_000 }).toContain('Quest complete: First Catch!');
    await page.context().close();
  });

  it("Smith Bertrand's quest before Boar Trouble: refused in words, and the conversation ends", async () => {
    const page = await open(h, 'Eager');
    const forge = await walkableNear(h, 620, 596);
    await adminTo(page, forge.x, forge.z);
    await talkTo(page, 'smith_bertrand', 'Smith Bertrand');
    await choose(page, 'Need a hand at the forge?');
    await expect
      .poll(() => chatText(page), { timeout: 10_000 })
      .toContain('Quest "Boar Trouble" must be completed first.');
    await expect.poll(() => page.locator('#dialogue').isHidden()).toBe(true);
    expect(await chatText(page)).not.toContain('Ore first');
    await page.context().close();
  });
});
