import type { CommandOf, PlayerAction } from '../../core/commands.ts';
import type { DialogueNode, DialogueTree } from '../../core/content.ts';
import { interfaceOpened } from '../../core/reactions.ts';
import { emit, emitError, type GameWorld, type PlayerData } from '../../core/world.ts';
import { NPCS } from '../npcs/index.ts';
import { questStatusFor, talkedTo } from '../quests/index.ts';
import { runEffect } from './effects.ts';
import { DIALOGUE, DIALOGUE_RANGE, type OpenDialogue } from './state.ts';

/**
 * NPC dialogue (npcs.json `dialogue`). `player:action talk` (reach 1) opens the NPC's tree at its entry
 * node; each node is sent as `dialogueNode` with its responses as options (ids "0", "1", ... in manifest
 * order); `dialogue:choose` runs the option's effect (effects.ts) and moves to its next node, or ends the
 * conversation when it has none. Talking to an NPC also counts for the player's quests (dialogue and
 * deliver stages). The conversation ends (`dialogueClose`) when the player closes it, walks more than
 * DIALOGUE_RANGE from the NPC, opens another interface, starts another action, dies or leaves.
 */

function nodeEvent(world: GameWorld, player: PlayerData, open: OpenDialogue, node: DialogueNode): void {
  emit(world, player.characterId, 'dialogueNode', {
    npcId: open.npcId,
    entityId: open.entityId,
    nodeId: node.id,
    text: node.text,
    options: node.responses.map((r, i) => ({ id: String(i), text: r.text })),
  });
}

/** `player:action talk` on an NPC (walked to first). */
export function talk(world: GameWorld, player: PlayerData, targetId: string, origin?: string): void {
  const eid = world.eidByWireId.get(targetId);
  if (eid === undefined) {
    emitError(world, player.characterId, 'NOT_FOUND', `no entity ${targetId}`, origin);
    return;
  }
  const npc = world.get(NPCS).byEid.get(eid);
  const tree = npc ? world.content.dialogues?.get(npc.npcId) : undefined;
  if (!npc || !tree?.nodes.has(tree.entryNodeId)) {
    emitError(world, player.characterId, 'INVALID_TARGET', `${targetId} has nothing to say`, origin);
    return;
  }
  closeDialogue(world, player, false);
  interfaceOpened(world, player, 'dialogue');
  // The talk itself finishes a report or a delivery due to this NPC: the NPC answers the quest state as
  // it is after that talk (never the in-progress line on the talk that completes the quest).
  const due = tree.questOverrides.map(
    (o) => questStatusFor(world, player, o.questId, npc.npcId) === 'ready_to_complete',
  );
  talkedTo(world, player, npc.npcId);
  const entry = tree.nodes.get(entryNode(world, player, npc.npcId, tree, due)) as DialogueNode;
  const open: OpenDialogue = { npcId: npc.npcId, entityId: targetId, nodeId: entry.id };
  world.get(DIALOGUE).open.set(player.characterId, open);
  show(world, player, open, entry, origin);
}

/**
 * The entry node, or the first quest override that applies to this player once the talk has counted
 * (`due[i]`: override i's quest had a report or delivery to this NPC due before the talk):
 *  - a stage finished by this talk: its `ready_to_complete` node when there is one; else, when that
 *    finished the quest, its `completed` node; else its `in_progress` node (the next step);
 *  - completed earlier: `completed`; in progress: `in_progress`.
 */
function entryNode(
  world: GameWorld,
  player: PlayerData,
  npcId: string,
  tree: DialogueTree,
  due: readonly boolean[],
): string {
  for (const [i, o] of tree.questOverrides.entries()) {
    const status = questStatusFor(world, player, o.questId, npcId);
    const node = due[i]
      ? (o.readyToComplete ?? (status === 'completed' ? o.completed : o.inProgress))
      : status === 'completed'
        ? o.completed
        : status === 'not_started'
          ? undefined
          : o.inProgress;
    if (node !== undefined && tree.nodes.has(node)) return node;
  }
  return tree.entryNodeId;
}

/** Send a node; its own effect (completeQuest) runs as it is shown. */
function show(
  world: GameWorld,
  player: PlayerData,
  open: OpenDialogue,
  node: DialogueNode,
  origin?: string,
): void {
  nodeEvent(world, player, open, node);
  if (node.effect) runEffect(world, player, open, node.effect, origin);
}

export function handleDialogueChoose(world: GameWorld, cmd: CommandOf<'dialogueChoose'>): void {
  const player = world.players.get(cmd.characterId);
  if (!player) return;
  const state = world.get(DIALOGUE);
  const open = state.open.get(player.characterId);
  const node = open ? world.content.dialogues?.get(open.npcId)?.nodes.get(open.nodeId) : undefined;
  if (!open || !node) {
    emitError(world, player.characterId, 'NOT_FOUND', 'you are not talking to anyone', cmd.origin);
    return;
  }
  const index = /^\d+$/.test(cmd.optionId) ? Number(cmd.optionId) : -1;
  const response = node.responses[index];
  if (!response) {
    emitError(world, player.characterId, 'NOT_FOUND', `no option ${cmd.optionId}`, cmd.origin);
    return;
  }
  const done = response.effect ? runEffect(world, player, open, response.effect, cmd.origin) : true;
  // An effect that opened another interface ended the conversation.
  if (state.open.get(player.characterId) !== open) return;
  // A refused effect (its error says why) must not go on to a node that speaks as if it had happened.
  if (!done) {
    closeDialogue(world, player);
    return;
  }
  const next = response.nextNodeId
    ? world.content.dialogues?.get(open.npcId)?.nodes.get(response.nextNodeId)
    : undefined;
  if (!next) {
    closeDialogue(world, player);
    return;
  }
  open.nodeId = next.id;
  show(world, player, open, next, cmd.origin);
}

export function handleDialogueClose(world: GameWorld, cmd: CommandOf<'dialogueClose'>): void {
  const player = world.players.get(cmd.characterId);
  if (player) world.get(DIALOGUE).open.delete(player.characterId);
}

/** End the player's conversation, if any (`dialogueClose` unless it is leaving). */
export function closeDialogue(world: GameWorld, player: PlayerData, tell = true): void {
  if (!world.get(DIALOGUE).open.delete(player.characterId)) return;
  if (tell) emit(world, player.characterId, 'dialogueClose', {});
}

/** System: conversations of players farther than DIALOGUE_RANGE from their NPC (or whose NPC is gone) end. */
export function dialogueSystem(world: GameWorld): void {
  const state = world.get(DIALOGUE);
  if (state.open.size === 0) return;
  const p = world.c.Position;
  for (const [id, open] of [...state.open]) {
    const player = world.players.get(id);
    const npc = world.eidByWireId.get(open.entityId);
    if (!player) {
      state.open.delete(id);
      continue;
    }
    const far =
      npc === undefined ||
      Math.max(
        Math.abs((p.x[npc] as number) - (p.x[player.eid] as number)),
        Math.abs((p.z[npc] as number) - (p.z[player.eid] as number)),
      ) > DIALOGUE_RANGE;
    if (far) closeDialogue(world, player);
  }
}

export function onInterfaceOpened(world: GameWorld, player: PlayerData, kind: string): void {
  if (kind !== 'dialogue') closeDialogue(world, player);
}

export function onActionStarted(world: GameWorld, player: PlayerData, verb: PlayerAction): void {
  if (verb !== 'talk') closeDialogue(world, player);
}

export const onLeave = (world: GameWorld, player: PlayerData) => closeDialogue(world, player, false);
export const onDeath = (world: GameWorld, player: PlayerData) => closeDialogue(world, player);
