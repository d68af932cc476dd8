import { describe, expect, it } from 'vitest';
import type { DialogueTree, NpcSpawn, SimContent } from '../../ecs/core/content.ts';
import { itemGathered, itemMade, npcKilled } from '../../ecs/core/reactions.ts';
import { knownEffect } from '../../ecs/features/dialogue/index.ts';
import { spawnNpc } from '../../ecs/features/npcs/index.ts';
import type { QuestProgress } from '../../ecs/features/quests/index.ts';
import { FakePersistence } from '../../ecs/features/trade/trade-scenario-helpers.ts';
import { loadContent } from '../../world/loader.ts';
import { toSimContent } from '../../world/sim-content.ts';
import { defaultManifests, referenceAvailable, referenceManifests } from '../fixtures/content/paths.ts';
import { PROBE, probe } from '../helpers/quest-content.ts';
import { Scenario } from '../scenario/harness.ts';

/**
 * Every store, dialogue tree and quest of a content set, run through the simulation: each shop opens at
 * its keeper and sells its first item; every dialogue node is reachable from its entry (or reported) and
 * every option is chosen with no unknown effect; every quest is played from start to rewards.
 */

function world(content: SimContent) {
  const s = new Scenario({ content, features: [probe] });
  const { x, z } = content.spawn;
  const id = s.addPlayer({ name: 'Walker', x, z, coins: 1_000_000 });
  /** A fresh NPC of this id next to the player (wire id returned). */
  const npcNextTo = (npcId: string, storeId?: string, service?: NpcSpawn['service']): string => {
    const px = s.world.c.Position.x[s.player(id).eid] as number;
    const pz = s.world.c.Position.z[s.player(id).eid] as number;
    const tiles = [
      [px + 1, pz],
      [px - 1, pz],
      [px, pz + 1],
      [px, pz - 1],
      [px + 1, pz + 1],
    ] as const;
    const tile = tiles.find(([x, z]) => content.map.isWalkable(x, z)) ?? tiles[0];
    const eid = spawnNpc(
      s.world,
      {
        npcId,
        x: tile[0],
        z: tile[1],
        count: 1,
        radius: 0,
        service: service ?? (storeId ? 'store' : undefined),
        storeId,
      },
      -1,
    );
    if (eid === null) throw new Error(`cannot spawn ${npcId}`);
    return s.world.wireIds[eid] as string;
  };
  return { s, id, npcNextTo, db: new FakePersistence(s) };
}

type Root = { nodeId: string; quest?: { id: string; progress: QuestProgress } };

/** Where conversations with this NPC start: the entry, and each quest override (with the state it needs). */
function rootsOf(content: SimContent, npcId: string, tree: DialogueTree): Root[] {
  const roots: Root[] = [{ nodeId: tree.entryNodeId }];
  for (const o of tree.questOverrides) {
    const quest = content.quests?.get(o.questId);
    if (!quest) continue;
    const last = quest.stages.length - 1;
    const report = quest.stages.findLastIndex((st) => st.type === 'dialogue' && st.npcId === npcId);
    const busy = quest.stages.findIndex((st) => st.npcId !== npcId);
    if (o.completed)
      roots.push({
        nodeId: o.completed,
        quest: { id: o.questId, progress: { status: 'completed', stage: last, progress: 1 } },
      });
    if (o.readyToComplete && report >= 0)
      roots.push({
        nodeId: o.readyToComplete,
        quest: { id: o.questId, progress: { status: 'in_progress', stage: report, progress: 0 } },
      });
    if (o.inProgress && busy >= 0)
      roots.push({
        nodeId: o.inProgress,
        quest: { id: o.questId, progress: { status: 'in_progress', stage: busy, progress: 0 } },
      });
  }
  return roots;
}

/** Paths (option indexes) from a node to every node reachable from it. */
function pathsFrom(tree: DialogueTree, root: string): Map<string, number[]> {
  const paths = new Map<string, number[]>([[root, []]]);
  const queue = [root];
  while (queue.length > 0) {
    const nodeId = queue.shift() as string;
    tree.nodes.get(nodeId)?.responses.forEach((r, i) => {
      if (r.nextNodeId && !paths.has(r.nextNodeId)) {
        paths.set(r.nextNodeId, [...(paths.get(nodeId) ?? []), i]);
        queue.push(r.nextNodeId);
      }
    });
  }
  return paths;
}

function unreachableNodes(content: SimContent): string[] {
  const out: string[] = [];
  for (const [npcId, tree] of content.dialogues ?? []) {
    const seen = new Set<string>();
    for (const root of rootsOf(content, npcId, tree))
      for (const id of pathsFrom(tree, root.nodeId).keys()) seen.add(id);
    for (const id of tree.nodes.keys()) if (!seen.has(id)) out.push(`${npcId}/${id}`);
  }
  return out;
}

function runShops(content: SimContent): void {
  expect(content.stores?.size ?? 0).toBeGreaterThan(0);
  for (const store of content.stores?.values() ?? []) {
    const { s, id, npcNextTo, db } = world(content);
    const keeper = content.npcSpawns.find((sp) => sp.storeId === store.id)?.npcId;
    const wire = npcNextTo(keeper ?? [...content.npcs.keys()][0] ?? 'none', store.id);
    s.push({ type: 'action', characterId: id, action: 'shop', targetId: wire });
    s.step();
    expect(s.lastEvent(id, 'shopOpen')?.data.shopId, store.id).toBe(store.id);
    const first = store.items[0];
    if (!first) continue;
    s.push({ type: 'shopBuy', characterId: id, shopId: store.id, itemId: first.itemId, quantity: 1 });
    s.step();
    db.settle(true);
    expect(s.eventsOf(id, 'error'), store.id).toEqual([]);
    expect(s.player(id).state.coins).toBe(1_000_000 - first.price);
  }
}

/**
 * From every start of every tree (the entry, each quest override with the quest state it needs), choose
 * every option of every node reached, in a fresh world each; returns the effects seen.
 */
function runDialogues(content: SimContent): Set<string> {
  const effects = new Set<string>();
  for (const [npcId, tree] of content.dialogues ?? []) {
    const spawn = content.npcSpawns.find((sp) => sp.npcId === npcId);
    const done = new Set<string>();
    for (const root of rootsOf(content, npcId, tree)) {
      for (const [nodeId, path] of pathsFrom(tree, root.nodeId)) {
        const node = tree.nodes.get(nodeId);
        if (node?.effect) effects.add(node.effect);
        node?.responses.forEach((r, i) => {
          if (done.has(`${nodeId}/${i}`)) return;
          done.add(`${nodeId}/${i}`);
          if (r.effect) effects.add(r.effect);
          const { s, id, npcNextTo } = world(content);
          const quests: Record<string, QuestProgress> = root.quest
            ? { [root.quest.id]: { ...root.quest.progress } }
            : {};
          // An option that starts a quest is tried with that quest's requirements met.
          const starts = r.effect?.startsWith('startQuest:')
            ? content.quests?.get(r.effect.slice(11))
            : undefined;
          for (const q of starts?.requiredQuests ?? [])
            quests[q] = { status: 'completed', stage: 0, progress: 1 };
          s.player(id).state.slices = { quests: { points: 0, quests } };
          const wire = npcNextTo(npcId, spawn?.storeId, spawn?.service);
          s.push({ type: 'action', characterId: id, action: 'talk', targetId: wire });
          s.step();
          expect(s.eventsOf(id, 'dialogueNode')[0]?.data.nodeId, `${npcId} starts at ${root.nodeId}`).toBe(
            root.nodeId,
          );
          for (const step of path) {
            s.push({ type: 'dialogueChoose', characterId: id, optionId: String(step) });
            s.step();
          }
          expect(s.lastEvent(id, 'dialogueNode')?.data.nodeId, `${npcId}/${nodeId}`).toBe(nodeId);
          s.push({ type: 'dialogueChoose', characterId: id, optionId: String(i) });
          s.step();
          const errors = s.eventsOf(id, 'error').map((e) => `${e.data.code}: ${e.data.message}`);
          expect(errors, `${npcId}/${nodeId} option ${i} (${r.effect ?? 'no effect'})`).toEqual([]);
        });
      }
    }
  }
  return effects;
}

function runQuests(content: SimContent): void {
  expect(content.quests?.size ?? 0).toBeGreaterThan(0);
  for (const quest of content.quests?.values() ?? []) {
    const { s, id, npcNextTo } = world(content);
    const p = s.player(id);
    // Requirements met: required quests completed, skill levels reached.
    p.state.slices = {
      quests: {
        points: 0,
        quests: Object.fromEntries(
          quest.requiredQuests.map((q) => [q, { status: 'completed', stage: 0, progress: 1 }]),
        ),
      },
    };
    for (const [skill, level] of Object.entries(quest.requiredSkills)) {
      const sv = p.state.skills[skill as keyof typeof p.state.skills];
      sv.level = level as number;
    }
    npcNextTo(quest.startNpc);
    s.push({ type: 'questStart', characterId: id, questId: quest.id });
    s.step();
    expect(s.eventsOf(id, 'error'), quest.id).toEqual([]);
    for (let guard = 0; guard < 40; guard++) {
      const progress = p.state.slices?.quests?.quests[quest.id];
      if (!progress || progress.status === 'completed') break;
      const stage = quest.stages[progress.stage];
      if (!stage) break;
      if (stage.type === 'dialogue' || stage.type === 'deliver') {
        if (stage.type === 'deliver' && stage.target) {
          const free = p.state.inventory.indexOf(null);
          const stackable = content.items.get(stage.target)?.stackable;
          if (stackable) p.state.inventory[free] = { itemId: stage.target, quantity: stage.count };
          else
            for (let k = 0; k < stage.count; k++)
              p.state.inventory[p.state.inventory.indexOf(null)] = { itemId: stage.target, quantity: 1 };
        }
        const wire = npcNextTo(stage.npcId ?? quest.startNpc);
        s.push({ type: 'action', characterId: id, action: 'talk', targetId: wire });
        s.step();
      } else {
        const target = stage.target ?? '';
        s.world
          .get(PROBE)
          .queue.push((w) =>
            stage.type === 'kill'
              ? Array.from({ length: stage.count }, () => npcKilled(w, p, target))
              : stage.type === 'interact'
                ? itemMade(w, p, target, stage.count)
                : itemGathered(w, p, target, stage.count),
          );
        s.step();
      }
    }
    expect(p.state.slices?.quests?.quests[quest.id]?.status, quest.id).toBe('completed');
    expect(p.state.slices?.quests?.points, quest.id).toBe(quest.rewardQuestPoints);
    for (const item of quest.rewardItems) {
      if (item.itemId === 'coins') continue;
      const held =
        p.state.inventory.some((x) => x?.itemId === item.itemId) ||
        p.state.bank.some((x) => x.itemId === item.itemId);
      expect(held, `${quest.id} reward ${item.itemId}`).toBe(true);
    }
  }
}

describe('shops, dialogue and quests of the default world', async () => {
  const content = toSimContent(await loadContent(defaultManifests));

  it('has at least three shops, one with limited stock and one that buys back; each opens and sells', () => {
    const stores = [...(content.stores?.values() ?? [])];
    expect(stores.length).toBeGreaterThanOrEqual(3);
    expect(stores.some((st) => st.items.some((i) => i.stockQuantity >= 0 && i.restockTime > 0))).toBe(true);
    expect(stores.some((st) => st.buyback)).toBe(true);
    runShops(content);
  });

  it('a dialogue for every non-mob NPC; every node reachable; every option runs with known effects', () => {
    for (const npc of content.npcs.values()) {
      if (npc.category !== 'mob') expect(content.dialogues?.has(npc.id), npc.id).toBe(true);
    }
    expect(unreachableNodes(content)).toEqual([]);
    const effects = runDialogues(content);
    for (const e of effects) expect(knownEffect(e), e).toBe(true);
  });

  it('three quests of increasing length using dialogue, kill, gather and deliver stages, each playable to its rewards', () => {
    const quests = [...(content.quests?.values() ?? [])];
    const lengths = quests.map((q) => q.stages.length).sort((a, b) => a - b);
    expect(new Set(lengths).size).toBeGreaterThanOrEqual(3);
    const kinds = new Set(quests.flatMap((q) => q.stages.map((st) => st.type)));
    for (const k of ['dialogue', 'kill', 'gather', 'deliver'] as const) expect(kinds.has(k)).toBe(true);
    // Every start NPC stands in the world.
    for (const q of quests)
      expect(
        content.npcSpawns.some((sp) => sp.npcId === q.startNpc),
        q.id,
      ).toBe(true);
    runQuests(content);
  });
});

describe('shops, dialogue and quests of the reference manifests (reads ../shared)', async () => {
  if (!referenceAvailable()) return;
  const content = toSimContent(await loadContent(referenceManifests));

  it('every store opens at a keeper and sells its first item', () => runShops(content));

  it('every dialogue node is reachable or reported, every effect is known, every option runs', () => {
    expect(unreachableNodes(content)).toEqual([]);
    const effects = runDialogues(content);
    expect([...effects].filter((e) => !knownEffect(e))).toEqual([]);
  });

  it('every quest plays from start to rewards through every stage kind it uses', () => runQuests(content));
});
