import { describe, expect, it } from 'vitest';
import { PROBE, probe, questContent } from '../../../tests/helpers/quest-content.ts';
import { Scenario } from '../../../tests/scenario/harness.ts';
import type { ItemStack } from '../../core/character-state.ts';
import { populateWorld } from '../../core/populate.ts';
import { itemGathered, itemMade, npcKilled } from '../../core/reactions.ts';
import type { GameWorld } from '../../core/world.ts';
import { FakePersistence } from '../trade/trade-scenario-helpers.ts';

const WARDEN = 'npc-4';
const ANGLER = 'npc-5';

function world(opts: { inventory?: (ItemStack | null)[]; x?: number; z?: number } = {}) {
  const s = new Scenario({ content: questContent(), features: [probe] });
  populateWorld(s.world);
  const db = new FakePersistence(s);
  const id = s.addPlayer({ name: 'Hero', x: opts.x ?? 100, z: opts.z ?? 99, ...opts });
  const later = (f: (w: GameWorld) => void) => s.world.get(PROBE).queue.push(f);
  const kill = (npcId: string, n = 1) => {
    for (let i = 0; i < n; i++) later((w) => npcKilled(w, s.player(id), npcId));
    s.step();
  };
  const gather = (itemId: string, quantity: number) => {
    later((w) => itemGathered(w, s.player(id), itemId, quantity));
    s.step();
  };
  const make = (itemId: string, quantity: number) => {
    later((w) => itemMade(w, s.player(id), itemId, quantity));
    s.step();
  };
  const talk = (target: string, steps = 1) => {
    s.push({ type: 'action', characterId: id, action: 'talk', targetId: target });
    s.step(steps);
  };
  const choose = (optionId: string) => {
    s.push({ type: 'dialogueChoose', characterId: id, optionId });
    s.step();
  };
  const updates = () => s.eventsOf(id, 'questUpdate').map((e) => e.data);
  return { s, db, id, p: () => s.player(id), kill, gather, make, talk, choose, updates };
}

const codes = (s: Scenario, id: string) => s.eventsOf(id, 'error').map((e) => e.data.code);

describe('quests', () => {
  it('starts from the start NPC dialogue: onStart items, and the talk completes the first dialogue stage', () => {
    const { s, id, p, talk, choose, updates } = world();
    talk(WARDEN);
    choose('0');
    // One update, naming the step after the talk that started it (never "talk to the warden" while talking to him).
    expect(updates()).toEqual([
      { questId: 'hunt', status: 'in_progress', stageId: 'kill', progress: 0, count: 3 },
    ]);
    expect(p().state.inventory[0]).toEqual({ itemId: 'bronze_sword', quantity: 1 });
    expect(p().state.slices?.quests?.quests['hunt']).toEqual({
      status: 'in_progress',
      stage: 1,
      progress: 0,
    });
    expect(s.lastEvent(id, 'dialogueNode')?.data.nodeId).toBe('go');
  });

  it('kill stage counts npcKilled of its target only; the report to the NPC completes it with rewards', () => {
    const { s, id, p, kill, talk, choose, updates } = world();
    talk(WARDEN);
    choose('0');
    kill('marsh_rat');
    kill('goblin', 2);
    expect(updates().at(-1)).toEqual({
      questId: 'hunt',
      status: 'in_progress',
      stageId: 'kill',
      progress: 2,
      count: 3,
    });
    kill('goblin');
    expect(updates().at(-1)).toMatchObject({ stageId: 'report', progress: 0 });
    kill('goblin');
    expect(updates().at(-1)).toMatchObject({ stageId: 'report', progress: 0 });
    const before = p().state.skills.attack.xp;
    talk(WARDEN);
    expect(updates().at(-1)).toEqual({
      questId: 'hunt',
      status: 'completed',
      stageId: 'report',
      progress: 1,
      count: 1,
    });
    expect(p().state.skills.attack.xp).toBe(before + 500);
    expect(s.lastEvent(id, 'skillXp')?.data).toMatchObject({ skill: 'attack', gained: 500 });
    expect(p().state.coins).toBe(100);
    expect(p().state.inventory[1]).toEqual({ itemId: 'quest_medal', quantity: 1 });
    expect(p().state.slices?.quests?.points).toBe(1);
    expect(p().syncDirty).toBe(true);
    // Completed: quest:start does not start it again.
    s.push({ type: 'questStart', characterId: id, questId: 'hunt' });
    s.step();
    expect(codes(s, id)).toEqual(['REQUIREMENT_NOT_MET']);
  });

  it('requirements: a required quest and a skill level, named in the message', () => {
    const { s, id, talk, choose } = world({ x: 99, z: 100 });
    talk(ANGLER);
    choose('0');
    s.push({ type: 'questStart', characterId: id, questId: 'skilled' });
    s.step();
    expect(s.eventsOf(id, 'error').map((e) => [e.data.code, e.data.message])).toEqual([
      ['REQUIREMENT_NOT_MET', 'Quest "The Hunt" must be completed first'],
      ['REQUIREMENT_NOT_MET', 'Mining level 30 required'],
    ]);
    expect(s.eventsOf(id, 'questUpdate')).toEqual([]);
  });

  it('gather, interact and deliver stages, then the rewards; quest:list reports all of it', () => {
    const { s, id, p, kill, gather, make, talk, choose, updates } = world({ x: 99, z: 99 });
    talk(WARDEN);
    choose('0');
    kill('goblin', 3);
    talk(WARDEN);
    talk(ANGLER);
    choose('0');
    expect(updates().at(-1)).toMatchObject({ questId: 'fish', stageId: 'catch', progress: 0, count: 2 });
    gather('logs', 1);
    gather('shrimp', 1);
    expect(updates().at(-1)).toMatchObject({ questId: 'fish', stageId: 'catch', progress: 1 });
    gather('shrimp', 5);
    expect(updates().at(-1)).toMatchObject({ questId: 'fish', stageId: 'cook', progress: 0, count: 1 });
    // An interact stage counts what processing makes, not what is gathered.
    gather('logs', 1);
    expect(updates().at(-1)).toMatchObject({ questId: 'fish', stageId: 'cook', progress: 0 });
    make('logs', 1);
    expect(updates().at(-1)).toMatchObject({ questId: 'fish', stageId: 'give', count: 2 });
    // Without the shrimp the delivery waits.
    talk(ANGLER);
    expect(updates().at(-1)).toMatchObject({ questId: 'fish', stageId: 'give', status: 'in_progress' });
    p().state.inventory[5] = { itemId: 'shrimp', quantity: 1 };
    p().state.inventory[6] = { itemId: 'shrimp', quantity: 1 };
    p().state.inventory[7] = { itemId: 'shrimp', quantity: 1 };
    talk(ANGLER);
    expect(updates().at(-1)).toMatchObject({ questId: 'fish', status: 'completed' });
    expect(p().state.inventory.filter((x) => x?.itemId === 'shrimp')).toHaveLength(1);
    expect(p().state.skills.fishing.xp).toBe(200);
    expect(p().state.slices?.quests?.points).toBe(3);
    s.push({ type: 'questList', characterId: id });
    s.step();
    expect(s.lastEvent(id, 'questList')?.data).toEqual({
      quests: [
        { questId: 'hunt', name: 'The Hunt', status: 'completed', stageId: 'report', progress: 1, count: 1 },
        { questId: 'fish', name: 'Fish Supper', status: 'completed', stageId: 'give', progress: 2, count: 2 },
        {
          questId: 'skilled',
          name: 'For Experts',
          status: 'not_started',
          stageId: 'only',
          progress: 0,
          count: 1,
        },
      ],
      questPoints: 3,
    });
  });

  it('quest:start next to the start NPC; TOO_FAR elsewhere; NOT_FOUND for an unknown quest; BUSY when started', () => {
    const { s, id, p, updates } = world({ x: 110, z: 110 });
    s.push({ type: 'questStart', characterId: id, questId: 'hunt' });
    s.push({ type: 'questStart', characterId: id, questId: 'nope' });
    s.step();
    expect(codes(s, id)).toEqual(['TOO_FAR', 'NOT_FOUND']);
    const near = world({ x: 101, z: 99 });
    near.s.push({ type: 'questStart', characterId: near.id, questId: 'hunt' });
    near.s.push({ type: 'questStart', characterId: near.id, questId: 'hunt' });
    near.s.step();
    expect(near.updates().at(-1)).toMatchObject({ questId: 'hunt', stageId: 'kill' });
    expect(codes(near.s, near.id)).toEqual(['BUSY']);
    expect(updates()).toEqual([]);
    expect(p().state.slices?.quests).toBeUndefined();
  });

  it('onStart items that do not fit: INVENTORY_FULL, the quest does not start', () => {
    const full = Array.from({ length: 28 }, () => ({ itemId: 'bones', quantity: 1 }));
    const { s, id, talk, choose, updates } = world({ inventory: full });
    talk(WARDEN);
    choose('0');
    expect(codes(s, id)).toEqual(['INVENTORY_FULL']);
    expect(updates()).toEqual([]);
  });

  it('rewards wait while an item transaction is in flight, then are given', () => {
    const { s, db, id, p, kill, talk, choose, updates } = world({ x: 101, z: 99 });
    talk(WARDEN);
    choose('0');
    kill('goblin', 3);
    // A shop buy in flight (the shopkeeper npc-1 is at (102, 100)).
    s.push({ type: 'action', characterId: id, action: 'shop', targetId: 'npc-1' });
    s.step();
    s.push({ type: 'shopBuy', characterId: id, shopId: 'general', itemId: 'feather', quantity: 1 });
    p().state.coins = 10;
    s.step();
    expect(db.open).toHaveLength(1);
    talk(WARDEN);
    expect(updates().at(-1)).toMatchObject({ status: 'in_progress' });
    expect(p().state.slices?.quests?.points ?? 0).toBe(0);
    db.settle(true);
    expect(updates().at(-1)).toMatchObject({ questId: 'hunt', status: 'completed' });
    expect(p().state.coins).toBe(107);
    expect(p().state.slices?.quests?.points).toBe(1);
  });

  it('reward items that do not fit wait for room (INVENTORY_FULL once), then are given', () => {
    const { s, id, p, kill, talk, choose, updates } = world();
    talk(WARDEN);
    choose('0');
    kill('goblin', 3);
    for (let i = 0; i < 28; i++) p().state.inventory[i] ??= { itemId: 'bones', quantity: 1 };
    talk(WARDEN);
    expect(codes(s, id)).toEqual(['INVENTORY_FULL']);
    expect(updates().at(-1)).toMatchObject({ status: 'in_progress' });
    s.step(3);
    expect(codes(s, id)).toEqual(['INVENTORY_FULL']);
    p().state.inventory[5] = null;
    s.step();
    expect(updates().at(-1)).toMatchObject({ questId: 'hunt', status: 'completed' });
    expect(p().state.inventory[5]).toEqual({ itemId: 'quest_medal', quantity: 1 });
    expect(p().state.coins).toBe(100);
  });

  it('quest state is in the character slice: saved with the snapshot and picked up again on join', () => {
    const { s, db, id, talk, choose, kill } = world();
    talk(WARDEN);
    choose('0');
    kill('goblin', 2);
    s.push({ type: 'leave', characterId: id, reason: 'logout' });
    s.step();
    const saved = db.left.find((c) => c.id === id);
    expect(saved?.slices?.quests?.quests['hunt']).toEqual({ status: 'in_progress', stage: 1, progress: 2 });
    // Back in the world with that state: one more kill finishes the stage.
    const again = new Scenario({ content: questContent(), features: [probe] });
    populateWorld(again.world);
    if (!saved) throw new Error('no snapshot');
    again.push({ type: 'join', characterId: saved.id, accountId: saved.accountId, state: saved });
    again.step();
    again.world.get(PROBE).queue.push((w) => npcKilled(w, again.player(saved.id), 'goblin'));
    again.step();
    expect(again.lastEvent(saved.id, 'questUpdate')?.data).toMatchObject({ stageId: 'report' });
  });
});
