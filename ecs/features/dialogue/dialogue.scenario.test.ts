import { describe, expect, it } from 'vitest';
import { PROBE, probe, questContent } from '../../../tests/helpers/quest-content.ts';
import { Scenario } from '../../../tests/scenario/harness.ts';
import { populateWorld } from '../../core/populate.ts';
import { npcKilled } from '../../core/reactions.ts';
import { openTrade } from '../trade/trade-scenario-helpers.ts';

const SHOPKEEPER = 'npc-1';
const BANKER = 'npc-3';
const WARDEN = 'npc-4';
const MUTE = 'npc-6';

function world(x = 101, z = 101) {
  const s = new Scenario({ content: questContent(), features: [probe] });
  populateWorld(s.world);
  const id = s.addPlayer({ name: 'Talker', x, z });
  const talk = (target: string, steps = 1) => {
    s.push({ type: 'action', characterId: id, action: 'talk', targetId: target });
    s.step(steps);
  };
  const choose = (optionId: string) => {
    s.push({ type: 'dialogueChoose', characterId: id, optionId });
    s.step();
  };
  return { s, id, p: () => s.player(id), talk, choose };
}

const codes = (s: Scenario, id: string) => s.eventsOf(id, 'error').map((e) => e.data.code);

describe('dialogue', () => {
  it('talk walks to the NPC and opens its entry node with the responses as options', () => {
    const { s, id, talk } = world(108, 100);
    talk(SHOPKEEPER);
    expect(s.eventsOf(id, 'dialogueNode')).toEqual([]);
    s.step(5);
    expect(s.lastEvent(id, 'dialogueNode')?.data).toEqual({
      npcId: 'shopkeeper',
      entityId: SHOPKEEPER,
      nodeId: 'hi',
      text: 'Buying?',
      options: [
        { id: '0', text: 'Show me.' },
        { id: '1', text: 'A gift?' },
        { id: '2', text: 'Bye.' },
      ],
    });
  });

  it('an NPC without dialogue is INVALID_TARGET, an unknown target NOT_FOUND', () => {
    const { s, id, talk } = world(104, 103);
    talk(MUTE);
    talk('npc-404');
    expect(codes(s, id)).toEqual(['INVALID_TARGET', 'NOT_FOUND']);
  });

  it('an option moves to its next node; one without a next node ends it (dialogue:close); bad options NOT_FOUND', () => {
    const { s, id, p, talk, choose } = world();
    talk(SHOPKEEPER);
    choose('7');
    choose('x');
    expect(codes(s, id)).toEqual(['NOT_FOUND', 'NOT_FOUND']);
    choose('1'); // giveItem:feather:5, next node gift
    expect(s.lastEvent(id, 'dialogueNode')?.data).toMatchObject({
      nodeId: 'gift',
      options: [{ id: '0', text: 'Thanks.' }],
    });
    expect(p().state.inventory[0]).toEqual({ itemId: 'feather', quantity: 5 });
    choose('0');
    expect(s.eventsOf(id, 'dialogueClose')).toHaveLength(1);
    choose('0');
    expect(codes(s, id)).toEqual(['NOT_FOUND', 'NOT_FOUND', 'NOT_FOUND']);
  });

  it('openStore opens the NPC shop and ends the conversation', () => {
    const { s, id, talk, choose } = world();
    talk(SHOPKEEPER);
    choose('0');
    expect(s.lastEvent(id, 'shopOpen')?.data.shopId).toBe('general');
    expect(s.eventsOf(id, 'dialogueClose')).toHaveLength(1);
    expect(s.eventsOf(id, 'dialogueNode')).toHaveLength(1);
  });

  it('openBank opens the bank of a banker NPC', () => {
    const { s, id, talk, choose } = world(98, 103);
    talk(BANKER);
    choose('0');
    expect(s.lastEvent(id, 'bankUpdate')?.data).toEqual({ items: [] });
    expect(s.eventsOf(id, 'dialogueClose')).toHaveLength(1);
  });

  it('startQuest starts the quest and goes on to the next node; openTanner does nothing', () => {
    const { s, id, talk, choose } = world(100, 99);
    talk(WARDEN);
    choose('1');
    expect(s.eventsOf(id, 'dialogueClose')).toHaveLength(1);
    expect(codes(s, id)).toEqual([]);
    talk(WARDEN);
    choose('0');
    expect(s.lastEvent(id, 'questUpdate')?.data).toMatchObject({ questId: 'hunt', status: 'in_progress' });
    expect(s.lastEvent(id, 'dialogueNode')?.data.nodeId).toBe('go');
  });

  it('walking more than 2 tiles away, dialogue:close, another action or a shop ends it', () => {
    const { s, id, talk } = world();
    talk(SHOPKEEPER);
    s.push({ type: 'move', characterId: id, x: 100, z: 101, run: false });
    s.step(2);
    expect(s.eventsOf(id, 'dialogueClose')).toEqual([]);
    s.push({ type: 'move', characterId: id, x: 96, z: 101, run: false });
    s.step(3);
    expect(s.eventsOf(id, 'dialogueClose')).toHaveLength(1);
    const b = world();
    b.talk(SHOPKEEPER);
    b.s.push({ type: 'dialogueClose', characterId: b.id });
    b.s.step();
    b.s.push({ type: 'dialogueChoose', characterId: b.id, optionId: '0' });
    b.s.step();
    expect(codes(b.s, b.id)).toEqual(['NOT_FOUND']);
    b.talk(SHOPKEEPER);
    b.s.push({ type: 'action', characterId: b.id, action: 'shop', targetId: SHOPKEEPER });
    b.s.step();
    expect(b.s.eventsOf(b.id, 'dialogueClose')).toHaveLength(1);
    expect(b.s.lastEvent(b.id, 'shopOpen')).toBeDefined();
  });

  it('talking closes an open shop; a trade does not block talking but blocks the shop effect', () => {
    const { s, id, talk, choose } = world();
    s.push({ type: 'action', characterId: id, action: 'shop', targetId: SHOPKEEPER });
    s.step();
    talk(SHOPKEEPER);
    expect(s.eventsOf(id, 'shopClosed')).toHaveLength(1);
    const other = s.addPlayer({ name: 'Partner', x: 102, z: 101 });
    openTrade(s, id, other);
    talk(SHOPKEEPER);
    choose('0');
    expect(codes(s, id)).toEqual(['INTERFACE_BLOCKED']);
  });

  it('quest overrides pick the starting node by quest status; a node effect completes the quest', () => {
    const { s, id, talk, choose } = world(100, 99);
    const nodeIds = () => s.eventsOf(id, 'dialogueNode').map((e) => e.data.nodeId);
    talk(WARDEN);
    choose('0');
    talk(WARDEN);
    expect(nodeIds()).toEqual(['hi', 'go', 'progress']);
    s.world.get(PROBE).queue.push((w) => {
      for (let i = 0; i < 3; i++) npcKilled(w, s.player(id), 'goblin');
    });
    s.step();
    talk(WARDEN);
    expect(nodeIds().at(-1)).toBe('done');
    expect(s.lastEvent(id, 'questUpdate')?.data).toMatchObject({ questId: 'hunt', status: 'completed' });
    expect(s.eventsOf(id, 'questUpdate').filter((e) => e.data.status === 'completed')).toHaveLength(1);
    talk(WARDEN);
    expect(nodeIds().at(-1)).toBe('after');
  });
});
