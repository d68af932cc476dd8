import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  actOn,
  chooseOption,
  GameClient,
  gatherAt,
  makeRecipe,
  questList,
  startQuest,
  talkTo,
  walkTo,
} from '../../sdk/src/index.ts';
import { type DefaultWorld, startDefaultWorld } from '../helpers/default-world.ts';

/**
 * The SDK's long actions against the real server: each settles once with how it ended. A gathering run
 * is not ended by the stop of the run it replaced (the server stops a running gather when a new one
 * starts): the cause of agents that never finished a gathering cycle.
 */

let world: DefaultWorld;
let game: GameClient;
const MAGS = { x: 598, z: 572 };

beforeAll(async () => {
  world = await startDefaultWorld('sdk-activities', { TICK_MS: '50' });
  game = await GameClient.connect({ url: world.wsUrl, encoding: 'json' });
});

afterAll(async () => {
  await game?.close();
  await world?.stop();
});

const nodeOf = (resourceId: string) => {
  const n = game.world.nearest((e) => e.resourceId === resourceId);
  if (n === undefined) throw new Error(`no ${resourceId} in view`);
  return n;
};

describe('SDK activities', () => {
  it('walkTo arrives, and settles refused with the server code for a tile too far', async () => {
    const arrived = await walkTo(game, { x: MAGS.x, z: MAGS.z + 1 });
    expect(arrived).toMatchObject({ status: 'arrived', at: { x: MAGS.x, z: MAGS.z + 1 } });
    expect(arrived.tiles).toBeGreaterThan(20);
    const far = await walkTo(game, { x: MAGS.x + 500, z: MAGS.z });
    expect(far).toMatchObject({ status: 'refused', error: { code: 'TOO_FAR' } });
  });

  it('talkTo opens the dialogue, chooseOption answers it; questList and startQuest follow the quest', async () => {
    const mags = game.world.nearest((e) => e.npcId === 'angler_mags');
    const talk = await talkTo(game, mags?.id as string);
    if (talk.status !== 'node') throw new Error(`talk ${talk.status}`);
    expect(talk.node.options.length).toBeGreaterThan(1);
    const farewell = talk.node.options.find((o) => o.text === 'Farewell.');
    const next = await chooseOption(game, farewell?.id as string);
    expect(next.status).toBe('node');
    const before = await questList(game);
    if (before.status !== 'done') throw new Error(`quest:list ${before.status}`);
    expect(before.list.quests.find((q) => q.questId === 'first_catch')?.status).toBe('not_started');
    const started = await startQuest(game, 'first_catch');
    expect(started).toMatchObject({
      status: 'done',
      update: { questId: 'first_catch', status: 'in_progress' },
    });
    const again = await startQuest(game, 'first_catch');
    expect(again).toMatchObject({ status: 'refused', error: { code: 'BUSY' } });
  });

  it('a gathering run replaced by another ends interrupted; the new one runs on to its amount', async () => {
    const spot = nodeOf('spot_shallows');
    const progress: number[] = [];
    const first = gatherAt(game, spot.id, { amount: 20, timeoutMs: 30_000 });
    await game.next('gathering:start', 10_000);
    const second = gatherAt(game, spot.id, {
      amount: 2,
      timeoutMs: 30_000,
      onProgress: (p) => progress.push(p.progress),
    });
    expect(await first).toMatchObject({ status: 'stopped', reason: 'interrupted' });
    const out = await second;
    expect(out).toMatchObject({ status: 'stopped', reason: 'amount', resourceId: 'spot_shallows' });
    expect(out.items.get('raw_minnow')).toBeGreaterThanOrEqual(2);
    expect(out.xp.get('fishing')).toBeGreaterThan(0);
    expect(progress.at(-1)).toBeGreaterThanOrEqual(2);
  });

  it('makeRecipe cooks at a range until the batch ends; actOn opens a station', async () => {
    // The town's range, at 610,616, is out of view from the ford.
    expect((await walkTo(game, { x: 606, z: 606 })).status).toBe('arrived');
    const range = game.world.nearest((e) => e.stationType === 'range');
    expect(range).toBeDefined();
    const opened = await actOn(game, 'use', range?.id as string, 'station:open');
    if (opened.status !== 'done') throw new Error(`use ${opened.status}`);
    expect(opened.answer.recipes.map((r) => r.recipeId)).toContain('grilled_minnow');
    const out = await makeRecipe(game, {
      recipeId: 'grilled_minnow',
      quantity: 2,
      targetId: range?.id as string,
    });
    expect(out).toMatchObject({ status: 'stopped', reason: 'done', made: 2 });
    expect(out.items.get('raw_minnow')).toBe(-2);
  });
});
