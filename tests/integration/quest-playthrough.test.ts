import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SKILLS } from '../../ecs/core/skills.ts';
import {
  actOn,
  type DialogueNode,
  fight,
  GameClient,
  gatherAt,
  makeRecipe,
  pickUp,
  questList,
  chooseOption as sdkChoose,
  talkTo,
  walkTo,
} from '../../sdk/src/index.ts';
import { type DefaultWorld, startDefaultWorld } from '../helpers/default-world.ts';

/**
 * A new character plays the default world's three quests over a real socket, as a player would: only
 * the game's own verbs (walk, talk, choose, wield, eat, attack, gather, make), no admin command, no look
 * into the server. It starts each quest at the levels the ones before left it with (Boar Trouble at
 * combat level 3), never dies, and hears the NPC's done line on the talk that completes each quest.
 * Then the same character trains every one of the 17 skills the quests did not, with what the world
 * offers it (the general store's bow, arrows, runes and rawhide, the town's trees, the rats at the ford,
 * the quarry's essence, the shrine, the agility course), as a new player would.
 * A fast tick (TICK_MS 20) keeps the walks and fights short; the rules are the same at any tick.
 */

const TICK_MS = 20;
/** Room for a busy shared machine: each scene waits on the server step after step. */
const TEST_MS = 180_000;
let world: DefaultWorld;
let game: GameClient;
const deaths: number[] = [];
/** Every node the character was shown, in order. */
const nodes: DialogueNode[] = [];

beforeAll(async () => {
  world = await startDefaultWorld('quest-playthrough', { TICK_MS: String(TICK_MS) });
  game = await GameClient.connect({ url: world.wsUrl, encoding: 'json', name: 'Newcomer' });
  game.on('entity:death', (d) => {
    if (d.id === game.world.selfId) deaths.push(game.world.tick);
  });
  game.on('dialogue:node', (n) => nodes.push(n));
});

afterAll(async () => {
  await game?.close();
  await world?.stop();
});

const me = () => {
  const s = game.world.self;
  if (!s) throw new Error('no player:sync yet');
  return s;
};
const held = (itemId: string) =>
  me().inventory.reduce((n, s) => n + (s?.itemId === itemId ? s.quantity : 0), 0);
const slotOf = (itemId: string) => me().inventory.findIndex((s) => s?.itemId === itemId);
const level = (skill: keyof ReturnType<typeof me>['skills']) => me().skills[skill].level;

async function statusOf(questId: string): Promise<string | undefined> {
  const r = await questList(game);
  if (r.status !== 'done') throw new Error(`quest:list ${r.status}`);
  return r.list.quests.find((q) => q.questId === questId)?.status;
}

async function walk(x: number, z: number): Promise<void> {
  for (let i = 0; i < 3; i++) {
    const r = await walkTo(game, { x, z }, { timeoutMs: 60_000 });
    if (r.status === 'arrived') return;
  }
  throw new Error(`could not walk to ${x},${z} (at ${JSON.stringify(game.world.position)})`);
}

const npc = (npcId: string) => {
  const e = game.world.nearest((v) => v.npcId === npcId);
  if (!e) throw new Error(`${npcId} is not in view from ${JSON.stringify(game.world.position)}`);
  return e.id;
};

async function talk(npcId: string): Promise<DialogueNode> {
  const r = await talkTo(game, npc(npcId));
  if (r.status !== 'node') throw new Error(`talk to ${npcId}: ${JSON.stringify(r)}`);
  return r.node;
}

async function choose(node: DialogueNode, text: string): Promise<DialogueNode | null> {
  const option = node.options.find((o) => o.text === text);
  if (!option) throw new Error(`no "${text}" in ${JSON.stringify(node.options)}`);
  const r = await sdkChoose(game, option.id);
  if (r.status === 'closed') return null;
  if (r.status !== 'node') throw new Error(`choose "${text}": ${JSON.stringify(r)}`);
  return r.node;
}

/** Eat when below half health (what a careful new player does between fights). */
async function eatIfHurt(): Promise<void> {
  while (me().health < me().maxHealth / 2) {
    const food = ['baked_perch', 'grilled_minnow', 'barley_loaf'].map(slotOf).find((i) => i >= 0);
    if (food === undefined) return;
    const before = me().health;
    game.use(food);
    await game.next('player:sync', 5_000);
    if (me().health <= before) return;
  }
}

/** Gather `count` of `itemId` from the nearest nodes of `resourceId` (rocks deplete: the next one is taken). */
async function gatherItems(resourceId: string, itemId: string, count: number): Promise<void> {
  const start = held(itemId);
  for (let tries = 0; held(itemId) - start < count && tries < 40; tries++) {
    const node = game.world.nearest((e) => e.resourceId === resourceId && e.depleted !== true);
    if (!node) {
      await game.next('world:update', 5_000);
      continue;
    }
    await gatherAt(game, node.id, { amount: count - (held(itemId) - start), timeoutMs: 60_000 });
  }
  expect(held(itemId) - start).toBeGreaterThanOrEqual(count);
}

describe('the three quests of the default world, played from a new character', () => {
  it('Boar Trouble at combat level 3: the dagger, five boars, the report', { timeout: TEST_MS }, async () => {
    expect(me().combatLevel).toBe(3);
    expect(level('attack')).toBe(1);
    await walk(603, 591);
    const greeting = await talk('warden_corvin');
    const offer = await choose(greeting, 'How can I help?');
    const accepted = await choose(offer as DialogueNode, 'I will do it.');
    expect(accepted?.nodeId).toBe('accepted');
    expect(await statusOf('boar_trouble')).toBe('in_progress');
    // The quest's dagger, wielded.
    expect(held('bronze_dagger')).toBe(1);
    game.use(slotOf('bronze_dagger'));
    await expect.poll(() => me().equipment.weapon?.itemId ?? null, { timeout: 5_000 }).toBe('bronze_dagger');
    // The Ashwood's edge, where the boars root.
    await walk(662, 598);
    let kills = 0;
    for (let fights = 0; kills < 5 && fights < 30; fights++) {
      await eatIfHurt();
      const boar = game.world.nearest((e) => e.npcId === 'thornback_boar' && (e.health ?? 1) > 0);
      if (!boar) {
        await game.next('world:update', 5_000);
        continue;
      }
      const out = await fight(game, boar.id, { timeoutMs: 60_000 });
      expect(out.status).not.toBe('died');
      if (out.status === 'killed') kills++;
    }
    expect(kills).toBe(5);
    expect(deaths).toEqual([]);
    await walk(603, 591);
    const report = await talk('warden_corvin');
    expect(report.nodeId).toBe('quest_done');
    expect(await statusOf('boar_trouble')).toBe('completed');
    expect(held('founders_token')).toBe(1);
  });

  it('First Catch with the net Angler Mags gives: five minnows, handed in on the talk that completes it', {
    timeout: TEST_MS,
  }, async () => {
    await walk(598, 571);
    const greeting = await talk('angler_mags');
    const offered = await choose(greeting, 'Any work for me?');
    expect(offered?.nodeId).toBe('quest');
    expect(await statusOf('first_catch')).toBe('in_progress');
    expect((await talk('angler_mags')).nodeId).toBe('quest_progress');
    await gatherItems('spot_shallows', 'raw_minnow', 5);
    await walk(598, 571);
    const done = await talk('angler_mags');
    expect(done.nodeId).toBe('quest_done');
    expect(await statusOf('first_catch')).toBe('completed');
    expect(held('raw_minnow')).toBe(0);
    expect(held('baked_perch')).toBeGreaterThanOrEqual(3);
    expect(deaths).toEqual([]);
  });

  it('The Forge Apprentice after Boar Trouble: ore from the quarry, bars from the furnace, handed in', {
    timeout: TEST_MS,
  }, async () => {
    expect(level('mining')).toBe(1);
    expect(level('smithing')).toBe(1);
    await walk(619, 597);
    const greeting = await talk('smith_bertrand');
    const told = await choose(greeting, 'Need a hand at the forge?');
    expect(told?.nodeId).toBe('apprentice');
    expect(await statusOf('forge_apprentice')).toBe('in_progress');
    await walk(595, 678);
    await gatherItems('rock_copper', 'copper_ore', 3);
    await gatherItems('rock_tin', 'tin_ore', 3);
    await walk(623, 601);
    const furnace = game.world.nearest((e) => e.stationType === 'furnace');
    expect(furnace).toBeDefined();
    const made = await makeRecipe(game, {
      recipeId: 'bronze_bar',
      quantity: 2,
      targetId: furnace?.id as string,
    });
    expect(made).toMatchObject({ status: 'stopped', reason: 'done', made: 2 });
    await walk(619, 597);
    const done = await talk('smith_bertrand');
    expect(done.nodeId).toBe('quest_done');
    expect(await statusOf('forge_apprentice')).toBe('completed');
    expect(held('bronze_bar')).toBe(0);
    expect(held('iron_hatchet')).toBe(1);
    expect(me().questPoints).toBe(4);
    expect(deaths).toEqual([]);
    // No conversation ever showed an in-progress line on a talk that completed its quest.
    const completing = nodes.filter((n) => n.nodeId === 'quest_done');
    expect(completing.map((n) => n.npcId)).toEqual(['warden_corvin', 'angler_mags', 'smith_bertrand']);
  });

  it('then trains every skill with what the default world offers', { timeout: TEST_MS }, async () => {
    // Odalys' general store: a shortbow, arrows, runes, a hide.
    await walk(606, 611);
    const opened = await actOn(game, 'shop', npc('trader_odalys'), 'shop:open');
    expect(opened.status).toBe('done');
    const buy = async (itemId: string, quantity: number) => {
      const before = held(itemId);
      game.send('shop:buy', { shopId: 'emberfold_general', itemId, quantity });
      await expect.poll(() => held(itemId), { timeout: 10_000 }).toBe(before + quantity);
    };
    await buy('ash_shortbow', 1);
    await buy('bronze_arrow', 30);
    // A cast that misses or hits 0 gives no experience: runes for a couple of dozen casts.
    await buy('gust_rune', 25);
    await buy('mind_rune', 25);
    await buy('rawhide', 1);
    game.send('shop:close', { shopId: 'emberfold_general' });
    // Crafting: tan the hide (2 coins), stitch gloves with the needle and thread of the starting kit.
    expect(await makeRecipe(game, { recipeId: 'leather' })).toMatchObject({ reason: 'done', made: 1 });
    expect(await makeRecipe(game, { recipeId: 'hide_gloves' })).toMatchObject({ reason: 'done', made: 1 });
    // Woodcutting at the birches by the spawn; fletching and firemaking with the logs.
    await walk(593, 597);
    await gatherItems('tree_birch', 'birch_logs', 2);
    expect(await makeRecipe(game, { recipeId: 'arrow_shaft' })).toMatchObject({ reason: 'done', made: 1 });
    expect(await makeRecipe(game, { recipeId: 'birch_logs' })).toMatchObject({ reason: 'done', made: 1 });
    // Agility: the first obstacle of the course west of the square.
    await walk(563, 597);
    const obstacle = game.world.nearest((e) => e.stationType === 'obstacle');
    expect(obstacle).toBeDefined();
    // A fall (the log balance fails now and then) gives no experience: try again, as a player would.
    for (let tries = 0; tries < 8; tries++) {
      game.send('player:action', { action: 'cross', targetId: obstacle?.id as string });
      if ((await game.next('agility:end', 30_000)).success) break;
    }
    await expect.poll(() => me().skills.agility.xp, { timeout: 5_000 }).toBeGreaterThan(0);
    // Fishing at the ford, and the rats of the reeds for ranged, magic, strength, defence and prayer.
    await walk(593, 565);
    await gatherItems('spot_shallows', 'raw_minnow', 1);
    /** Fight the rats of the reeds until `skill` has gained experience (a miss or a 0 hit gives none). */
    const trainOnRats = async (skill: (typeof SKILLS)[number]) => {
      const before = me().skills[skill].xp;
      const outcomes: string[] = [];
      for (let tries = 0; tries < 12 && me().skills[skill].xp === before; tries++) {
        await eatIfHurt();
        const rat = game.world.nearest((e) => e.npcId === 'marsh_rat' && (e.health ?? 1) > 0);
        if (!rat) {
          await game.next('world:update', 5_000);
          continue;
        }
        outcomes.push(JSON.stringify(await fight(game, rat.id, { timeoutMs: 60_000 })));
      }
      expect(me().skills[skill].xp, `${skill}: ${outcomes.join(' ')}`).toBeGreaterThan(before);
    };
    game.use(slotOf('ash_shortbow'));
    await expect.poll(() => me().equipment.weapon?.itemId ?? null, { timeout: 5_000 }).toBe('ash_shortbow');
    game.use(slotOf('bronze_arrow'));
    await expect.poll(() => held('bronze_arrow'), { timeout: 5_000 }).toBe(0);
    await trainOnRats('ranged');
    game.send('combat:spell', { spellId: 'wind_strike' });
    await trainOnRats('magic');
    game.send('combat:spell', { spellId: null });
    game.use(slotOf('bronze_dagger'));
    await expect.poll(() => me().equipment.weapon?.itemId ?? null, { timeout: 5_000 }).toBe('bronze_dagger');
    game.send('combat:style', { style: 'aggressive' });
    await trainOnRats('strength');
    game.send('combat:style', { style: 'defensive' });
    await trainOnRats('defense');
    const bones = game.world.nearest((e) => e.type === 'item' && e.itemId === 'bones');
    expect(bones).toBeDefined();
    expect((await pickUp(game, bones?.id as string)).status).toBe('done');
    game.use(slotOf('bones'));
    await expect.poll(() => me().skills.prayer.xp, { timeout: 5_000 }).toBeGreaterThan(0);
    // Cooking at the town's range.
    await walk(609, 615);
    const range = game.world.nearest((e) => e.stationType === 'range');
    const cooked = await makeRecipe(game, { recipeId: 'grilled_minnow', targetId: range?.id as string });
    expect(cooked).toMatchObject({ reason: 'done', made: 1 });
    // Runecrafting: essence from the quarry, bound at the shrine.
    await walk(613, 674);
    await gatherItems('rock_essence', 'plain_essence', 1);
    await walk(600, 625);
    const shrine = game.world.nearest((e) => e.stationType === 'altar');
    const runes = await makeRecipe(game, { recipeId: 'gust_rune', targetId: shrine?.id as string });
    expect(runes).toMatchObject({ reason: 'done', made: 1 });

    // Every skill has gained experience since the character was made (constitution starts at 1,154).
    const untrained = SKILLS.filter((k) => me().skills[k].xp <= (k === 'constitution' ? 1154 : 0));
    expect(untrained).toEqual([]);
    expect(deaths).toEqual([]);
  });
});
