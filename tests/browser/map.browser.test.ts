import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  actOn,
  adminTo,
  BROWSER_TEST_MS,
  find,
  type Harness,
  open,
  position,
  say,
  shot,
  skipBrowser,
  startHarness,
  walkable,
  walkableNear,
} from './harness.ts';

/**
 * The map a person can read, in headless Chromium: the ground drawn from the world's data (paths,
 * water, roofs), a distinct look for each kind of thing (read from what the page drew, and from the
 * pixels), the quest marker, the hint at spawn, labels that never overlap in a fight, a stage that no
 * window covers, and the minimap walking on a click.
 */

let h: Harness;

interface Drawn {
  id: string;
  look: string;
  sx: number;
  sy: number;
  mark?: string;
}
const frame = async (page: Page) =>
  (await page.evaluate('JSON.parse(JSON.stringify(window.__game.frame))')) as {
    entities: Drawn[];
    labels: { x: number; y: number; w: number; h: number; id: string }[];
    boxes: { x: number; y: number; w: number; h: number }[];
  };

/** The colour the stage shows at a page point. */
async function pixel(page: Page, x: number, y: number): Promise<[number, number, number]> {
  return (await page.evaluate(
    `(() => { const c = document.getElementById('view'); const r = c.getBoundingClientRect();
      const d = c.getContext('2d').getImageData(Math.round(${x} - r.left), Math.round(${y} - r.top), 1, 1).data;
      return [d[0], d[1], d[2]]; })()`,
  )) as [number, number, number];
}
const tileColour = async (page: Page, x: number, z: number) => {
  const p = (await page.evaluate(`window.__game.screenOf(${x}, ${z})`)) as { x: number; y: number };
  return pixel(page, p.x, p.y);
};
const close = (a: number[], b: number[], tol = 18) =>
  a.every((v, i) => Math.abs(v - (b[i] as number)) <= tol);
const hex = (s: string) => [1, 3, 5].map((i) => Number.parseInt(s.slice(i, i + 2), 16));

/** The look the page drew for an entity found by a predicate, waiting until it is drawn. */
async function lookOf(page: Page, predicate: string): Promise<Drawn> {
  await expect.poll(() => find(page, predicate), { timeout: 10_000 }).not.toBeNull();
  const e = (await find(page, predicate)) as { id: string };
  let drawn: Drawn | undefined;
  await expect
    .poll(async () => {
      drawn = (await frame(page)).entities.find((d) => d.id === e.id);
      return drawn !== undefined;
    })
    .toBe(true);
  return drawn as Drawn;
}

const intersects = (
  a: { x: number; y: number; width: number; height: number },
  b: { x: number; y: number; width: number; height: number },
) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

describe.skipIf(skipBrowser)('the map in headless Chromium', { timeout: BROWSER_TEST_MS }, () => {
  beforeAll(async () => {
    h = await startHarness('map');
  }, 120_000);
  afterAll(async () => {
    await h?.stop();
  });

  it('at spawn: something to do in view, a hint toward the quest giver, paths and roofs from the map data', async () => {
    const page = await open(h, 'Newcomer');
    await expect
      .poll(() => page.locator('[data-testid=hint]').textContent(), { timeout: 10_000 })
      .toMatch(/What to do: talk to .+ \(marked !, [a-z-]+\) to start /);
    // The nearest quest giver is drawn with its marker, without opening any tab.
    await expect
      .poll(
        async () => (await frame(page)).entities.some((e) => e.look === 'quest' && e.mark === 'available'),
        {
          timeout: 10_000,
        },
      )
      .toBe(true);
    await shot(page, 'map-1-spawn');

    // A path tile is drawn as a path, a grass tile beside it as grass: the ground follows /api/map.
    const map = (await (await fetch(`${h.base}/api/map`)).json()) as {
      paths: [number, number, number][];
      buildings: {
        x: number;
        z: number;
        width: number;
        depth: number;
        door: { x: number; z: number } | null;
      }[];
    };
    const me = await position(page);
    const run = map.paths.find(([z, a, b]) => Math.abs(z - me.z) <= 6 && a <= me.x + 8 && b >= me.x - 8) as [
      number,
      number,
      number,
    ];
    const onPath = { x: Math.max(run[1], Math.min(run[2], me.x)), z: run[0] };
    const isPath = (x: number, z: number) => map.paths.some(([pz, a, b]) => pz === z && x >= a && x <= b);
    let grass: { x: number; z: number } | undefined;
    for (const [dx, dz] of [
      [0, 2],
      [2, 0],
      [0, -2],
      [-2, 0],
      [3, 3],
      [-3, -3],
      [3, -3],
      [-3, 3],
    ] as const) {
      const t = { x: onPath.x + dx, z: onPath.z + dz };
      if (!grass && !isPath(t.x, t.z) && (await walkable(h, t.x, t.z))) grass = t;
    }
    if (!grass) throw new Error('no grass next to the path');
    await page.waitForTimeout(800);
    const pathColour = await tileColour(page, onPath.x, onPath.z);
    const grassColour = await tileColour(page, grass.x, grass.z);
    expect(close(pathColour, [156, 126, 84], 24), `path ${pathColour}`).toBe(true);
    expect(grassColour[1] > grassColour[0] && grassColour[1] > grassColour[2], `grass ${grassColour}`).toBe(
      true,
    );

    // A building is a roof (not grass), its door a wooden doorway.
    const vault = map.buildings[0] as (typeof map.buildings)[number];
    const by = await walkableNear(h, vault.x + Math.floor(vault.width / 2), vault.z - 3, 2);
    await adminTo(page, by.x, by.z);
    await page.waitForTimeout(800);
    const roof = await tileColour(page, vault.x + 1, vault.z + vault.depth - 2);
    expect(roof[0] > roof[1], `roof ${roof}`).toBe(true);
    await shot(page, 'map-2-building');

    // Water where the fishing spots are.
    const spot = (await fetch(`${h.base}/api/map`).then((r) => r.json())) as {
      water: { x: number; z: number }[];
    };
    const pool = spot.water[0] as { x: number; z: number };
    const shore = await walkableNear(h, pool.x, pool.z + 5, 0);
    await adminTo(page, shore.x, shore.z);
    await page.waitForTimeout(800);
    const water = await tileColour(page, pool.x + 1, pool.z);
    expect(water[2] > water[0] + 40, `water ${water}`).toBe(true);
    await page.context().close();
  });

  it('draws each kind of thing its own way: people by role, monsters by level, nodes and stations', async () => {
    const page = await open(h, 'Looker');
    const spots: [number, number][] = [
      [596, 606],
      [600, 592],
      [618, 598],
      [584, 572],
      [594, 568],
      [572, 628],
      [600, 622],
      [596, 678],
    ];
    const looks = new Map<string, string>();
    for (const [x, z] of spots) {
      const at = await walkableNear(h, x, z, 0);
      await adminTo(page, at.x, at.z);
      await page.waitForTimeout(900);
      const state = (await page.evaluate(
        '[...window.__game.state.entities.values()].map((e) => ({ id: e.id, npcId: e.npcId, stationType: e.stationType, resourceId: e.resourceId }))',
      )) as { id: string; npcId?: string; stationType?: string; resourceId?: string }[];
      for (const d of (await frame(page)).entities) {
        const e = state.find((v) => v.id === d.id);
        const what = e?.npcId ?? (e?.stationType ? `station ${e.stationType}` : (e?.resourceId ?? d.look));
        looks.set(what, d.look);
      }
    }
    expect(looks.get('banker_ilse')).toBe('banker');
    expect(looks.get('trader_odalys')).toBe('shopkeeper');
    expect(looks.get('smith_bertrand')).toBe('quest');
    expect(looks.get('warden_corvin')).toBe('quest');
    expect(looks.get('marsh_rat')).toBe('mob');
    expect(looks.get('tree_birch')).toBe('tree');
    expect(looks.get('spot_shallows')).toBe('fishing');
    expect(looks.get('rock_copper')).toBe('rock');
    for (const s of ['bank', 'furnace', 'anvil', 'range', 'altar'])
      expect(looks.get(`station ${s}`)).toBe(`station:${s}`);

    // Pixels: a banker's body is gold, a shopkeeper's green, a quest giver's violet, a weaker monster lime.
    const square = await walkableNear(h, 596, 610, 2);
    await adminTo(page, square.x, square.z);
    await page.waitForTimeout(900);
    const tile = (await page.evaluate('window.__game.tile()')) as number;
    const view = (await page.locator('#view').boundingBox()) as { x: number; y: number };
    const body = async (predicate: string) => {
      const d = await lookOf(page, predicate);
      return pixel(page, view.x + d.sx, view.y + d.sy + tile * 0.2);
    };
    expect(close(await body("v.npcId === 'banker_ilse'"), hex('#e0b43a'), 30)).toBe(true);
    expect(close(await body("v.npcId === 'trader_odalys'"), hex('#3fae6a'), 30)).toBe(true);
    await page.context().close();
  });

  it('marks the quest giver while its quest is open to you, and not once started', async () => {
    const page = await open(h, 'Marker');
    const near = await walkableNear(h, 604, 590);
    await adminTo(page, near.x, near.z);
    const corvin = await lookOf(page, "v.npcId === 'warden_corvin'");
    expect(corvin.mark).toBe('available');
    await actOn(page, corvin.id, 'Talk to Warden Corvin');
    await page.locator('#dialogue button', { hasText: 'How can I help?' }).click();
    await page.locator('#dialogue button', { hasText: 'I will do it.' }).click();
    await expect
      .poll(async () => (await frame(page)).entities.find((e) => e.id === corvin.id)?.mark ?? null, {
        timeout: 10_000,
      })
      .toBeNull();
    await expect
      .poll(() => page.locator('[data-testid=hint]').textContent())
      .toContain('Boar Trouble: Defeat 5 thornback boars (0/5)');
    await page.context().close();
  });

  it('keeps labels apart in a fight with several monsters', async () => {
    const page = await open(h, 'Brawler');
    const near = await walkableNear(h, 750, 650, 0);
    await adminTo(page, near.x, near.z);
    for (let i = 0; i < 3; i++) await say(page, '/spawn ash_wolf');
    await say(page, '/level constitution 60');
    await expect
      .poll(async () => (await frame(page)).entities.filter((e) => e.look === 'mob').length, {
        timeout: 10_000,
      })
      .toBeGreaterThanOrEqual(3);
    // Ash wolves are aggressive: they come for me. Look at the labels over a few seconds of the fight.
    let checked = 0;
    for (let i = 0; i < 12; i++) {
      await page.waitForTimeout(300);
      const f = await frame(page);
      for (const a of f.labels) {
        for (const b of f.labels) {
          if (a === b) continue;
          const apart = a.x + a.w <= b.x || b.x + b.w <= a.x || a.y + a.h <= b.y || b.y + b.h <= a.y;
          expect(apart, `${a.id} and ${b.id}`).toBe(true);
        }
        for (const box of f.boxes) {
          const apart =
            a.x + a.w <= box.x || box.x + box.w <= a.x || a.y + a.h <= box.y || box.y + box.h <= a.y;
          expect(apart, `${a.id} over a bar or splat`).toBe(true);
        }
      }
      checked += f.labels.length;
    }
    expect(checked).toBeGreaterThan(12);
    await shot(page, 'map-3-fight');
    await page.context().close();
  });

  it('no window covers the stage; the minimap walks on a click', async () => {
    const page = await open(h, 'Layout');
    const near = await walkableNear(h, 606, 612);
    await adminTo(page, near.x, near.z);
    const trader = await lookOf(page, "v.npcId === 'trader_odalys'");
    await actOn(page, trader.id, 'Trade with Trader Odalys');
    await expect.poll(() => page.locator('#shop').isVisible(), { timeout: 10_000 }).toBe(true);
    const stage = (await page.locator('#view').boundingBox()) as {
      x: number;
      y: number;
      width: number;
      height: number;
    };
    for (const sel of ['#dock', '#shop', '#chat', '#side', '#hint']) {
      const box = await page.locator(sel).boundingBox();
      if (box) expect(intersects(stage, box), `${sel} over the stage`).toBe(false);
    }
    // The view stays centred on me (once my drawn position settles on my tile).
    await expect
      .poll(async () => {
        const me = await position(page);
        const c = (await page.evaluate(`window.__game.screenOf(${me.x}, ${me.z})`)) as {
          x: number;
          y: number;
        };
        return Math.round(
          Math.abs(c.x - (stage.x + stage.width / 2)) + Math.abs(c.y - (stage.y + stage.height / 2)),
        );
      })
      .toBeLessThan(2);
    await shot(page, 'map-4-shop-beside-stage');
    await page.locator('#shop button', { hasText: 'Close' }).click();

    // The minimap is one pixel a tile, north up: a pixel right and up of the centre is a tile east and north.
    const mm = (await page.locator('#minimap').boundingBox()) as {
      x: number;
      y: number;
      width: number;
      height: number;
    };
    const from = await position(page);
    let to = { dx: 12, dz: 6 };
    for (const [dx, dz] of [
      [12, 6],
      [10, 8],
      [8, 4],
      [14, -4],
      [6, -6],
    ] as const) {
      if (await walkable(h, from.x + dx, from.z + dz)) {
        to = { dx, dz };
        break;
      }
    }
    const scale = mm.width / 164; // 160 px canvas with a 2 px border each side
    await page.mouse.click(mm.x + 2 + (80 + to.dx + 0.5) * scale, mm.y + 2 + (80 - to.dz + 0.5) * scale);
    await expect
      .poll(() => position(page), { timeout: 10_000 })
      .toEqual({ x: from.x + to.dx, z: from.z + to.dz });
    await page.context().close();
  });
});
