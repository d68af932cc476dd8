import { describe, expect, it } from 'vitest';
import type { SimContent } from '../../ecs/core/content.ts';
import { populateWorld } from '../../ecs/core/populate.ts';
import { itemGathered, npcKilled } from '../../ecs/core/reactions.ts';
import { NPCS } from '../../ecs/features/npcs/index.ts';
import { loadContent } from '../../world/loader.ts';
import { toSimContent } from '../../world/sim-content.ts';
import { defaultManifests } from '../fixtures/content/paths.ts';
import { PROBE, probe } from '../helpers/quest-content.ts';
import { Scenario } from './harness.ts';

/**
 * The default world's quest givers answer the quest state as it is after each talk. The talk that hands
 * in the last report or delivery completes the quest, and the NPC must say so then (before the fix it
 * still spoke the in-progress line, "Bring them here." / "Still boars in the woods?", on that very talk).
 * A quest refused at its offer ends the conversation instead of telling its first step.
 */

function world(content: SimContent) {
  const s = new Scenario({ content, features: [probe] });
  populateWorld(s.world);
  const wireOf = (npcId: string): { wire: string; x: number; z: number } => {
    for (const npc of s.world.get(NPCS).byEid.values()) {
      if (npc.npcId !== npcId) continue;
      const p = s.world.c.Position;
      return {
        wire: s.world.wireIds[npc.eid] as string,
        x: p.x[npc.eid] as number,
        z: p.z[npc.eid] as number,
      };
    }
    throw new Error(`${npcId} is not in the world`);
  };
  const corvin = wireOf('warden_corvin');
  const id = s.addPlayer({ name: 'Newcomer', x: corvin.x, z: corvin.z + 1 });
  const nodes = () => s.eventsOf(id, 'dialogueNode').map((e) => e.data.nodeId);
  const texts = () => s.eventsOf(id, 'dialogueNode').map((e) => e.data.text);
  /** Talk to the NPC (walking there first) and return the node it opened with. */
  const talk = (npcId: string): string => {
    const before = nodes().length;
    s.push({ type: 'action', characterId: id, action: 'talk', targetId: wireOf(npcId).wire });
    for (let i = 0; i < 200 && nodes().length === before; i++) s.step();
    return nodes().at(-1) as string;
  };
  const choose = (text: string) => {
    const options = s.lastEvent(id, 'dialogueNode')?.data.options ?? [];
    const option = options.find((o) => o.text === text);
    if (!option) throw new Error(`no option "${text}" in ${JSON.stringify(options)}`);
    s.push({ type: 'dialogueChoose', characterId: id, optionId: option.id });
    s.step();
  };
  const status = (questId: string) => s.player(id).state.slices?.quests?.quests[questId]?.status;
  const happen = (f: (w: typeof s.world) => void) => {
    s.world.get(PROBE).queue.push(f);
    s.step();
  };
  return { s, id, talk, choose, nodes, texts, status, happen };
}

describe('quest dialogue in the default world', async () => {
  const content = toSimContent(await loadContent(defaultManifests));
  const override = (npcId: string, questId: string) =>
    content.dialogues?.get(npcId)?.questOverrides.find((o) => o.questId === questId);

  it('Warden Corvin: offer, in progress while hunting, done on the talk that reports the hunt', () => {
    const w = world(content);
    const quest = content.quests?.get('boar_trouble');
    const hunt = quest?.stages.find((st) => st.type === 'kill');
    const o = override('warden_corvin', 'boar_trouble');
    expect(hunt && o?.inProgress && o.completed).toBeTruthy();
    expect(w.talk('warden_corvin')).toBe(content.dialogues?.get('warden_corvin')?.entryNodeId);
    w.choose('How can I help?');
    w.choose('I will do it.');
    expect(w.status('boar_trouble')).toBe('in_progress');
    expect(w.talk('warden_corvin')).toBe(o?.inProgress);
    w.happen((g) => {
      for (let i = 0; i < (hunt?.count ?? 0); i++) npcKilled(g, w.s.player(w.id), hunt?.target ?? '');
    });
    expect(w.status('boar_trouble')).toBe('in_progress');
    // The report: this talk completes the quest, and the warden speaks of it as done.
    expect(w.talk('warden_corvin')).toBe(o?.completed);
    expect(w.status('boar_trouble')).toBe('completed');
    expect(w.talk('warden_corvin')).toBe(o?.completed);
    expect(w.s.eventsOf(w.id, 'error')).toEqual([]);
  });

  it('Angler Mags: the talk that hands over the catch completes the quest and shows the done line', () => {
    const w = world(content);
    const quest = content.quests?.get('first_catch');
    const deliver = quest?.stages.find((st) => st.type === 'deliver');
    const o = override('angler_mags', 'first_catch');
    w.talk('angler_mags');
    w.choose('Any work for me?');
    expect(w.status('first_catch')).toBe('in_progress');
    expect(w.talk('angler_mags')).toBe(o?.inProgress);
    // The catch, as gathering gives it: the items in the inventory and the reaction counted.
    const inv = w.s.player(w.id).state.inventory;
    const free = inv.indexOf(null);
    for (let k = 0; k < (deliver?.count ?? 0); k++)
      inv[inv.indexOf(null)] = { itemId: deliver?.target ?? '', quantity: 1 };
    expect(free).toBeGreaterThanOrEqual(0);
    w.happen((g) => itemGathered(g, w.s.player(w.id), deliver?.target ?? '', deliver?.count ?? 0));
    expect(w.talk('angler_mags')).toBe(o?.completed);
    expect(w.status('first_catch')).toBe('completed');
    expect(w.s.player(w.id).state.inventory.some((st) => st?.itemId === deliver?.target)).toBe(false);
  });

  it('Smith Bertrand: his quest refused before its requirement ends the talk, no "first step" line', () => {
    const w = world(content);
    const quest = content.quests?.get('forge_apprentice');
    expect(quest?.requiredQuests.length).toBeGreaterThan(0);
    w.talk('smith_bertrand');
    const shown = w.nodes().length;
    w.choose('Need a hand at the forge?');
    expect(w.s.eventsOf(w.id, 'error').map((e) => e.data.code)).toEqual(['REQUIREMENT_NOT_MET']);
    expect(w.nodes()).toHaveLength(shown);
    expect(w.s.eventsOf(w.id, 'dialogueClose')).toHaveLength(1);
    expect(w.status('forge_apprentice')).toBeUndefined();
  });
});
