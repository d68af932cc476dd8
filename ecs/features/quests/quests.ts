import type { ItemStack } from '../../core/character-state.ts';
import type { CommandOf } from '../../core/commands.ts';
import { grantXp, itemsChanged, stateChanged } from '../../core/players.ts';
import { itemLockOf } from '../../core/reactions.ts';
import type { Skill } from '../../core/skills.ts';
import { emit, emitError, type GameWorld, type PlayerData } from '../../core/world.ts';
import { addItem, COINS, countItem, holdingsOf, itemsLocked } from '../inventory/index.ts';
import { NPCS } from '../npcs/index.ts';
import type { QuestInfo } from './content.ts';
import type { QuestProgress, QuestSlice, QuestView } from './events.ts';
import { QUEST_START_RANGE, QUESTS } from './state.ts';

/**
 * Quests (quests.json). A quest starts from its start NPC's dialogue (effect `startQuest:<id>`) or with
 * `quest:start` next to that NPC, once its requirements (completed quests, skill levels) hold; its
 * `onStart` items are given then. Stages advance from what the player does:
 *  - `dialogue`: talking to the stage's `npcId` (the talk that starts a quest completes a first
 *    dialogue stage with its start NPC);
 *  - `kill`: kills of NPC `target` (the `npcKilled` reaction), `count` of them;
 *  - `gather`: items `target` gathered (the `itemGathered` reaction), `count` of them;
 *  - `interact`: items `target` made by processing (the `itemMade` reaction; `fire` for fires lit);
 *  - `deliver`: talking to `npcId` while holding `count` of `target`, which are handed over.
 * The last stage completes the quest: xp, items (into the inventory) and
 * quest points. Every change is one `questUpdate`. Item grants and hand-overs wait while the player's
 * items are locked (a transaction in flight, a trade), and reward items that do not fit wait for room
 * (INVENTORY_FULL once): the rewards are given on the first tick they can be. Quest state lives in the character's `quests` slice, saved with its snapshot.
 */

function questsOf(world: GameWorld): ReadonlyMap<string, QuestInfo> {
  return world.content.quests ?? new Map();
}

function sliceOf(player: PlayerData): QuestSlice {
  let slice = player.state.slices?.quests;
  if (!slice) {
    slice = { points: 0, quests: {} };
    player.state.slices = { ...player.state.slices, quests: slice };
  }
  return slice;
}

export function questPoints(player: PlayerData): number {
  return player.state.slices?.quests?.points ?? 0;
}

export function questView(quest: QuestInfo, p: QuestProgress | undefined): QuestView {
  const index = p ? Math.min(p.stage, quest.stages.length - 1) : 0;
  const stage = quest.stages[index];
  const done = p?.status === 'completed' || (p !== undefined && p.stage >= quest.stages.length);
  return {
    questId: quest.id,
    status: p?.status ?? 'not_started',
    stageId: stage?.id ?? '',
    progress: done ? (stage?.count ?? 1) : (p?.progress ?? 0),
    count: stage?.count ?? 1,
  };
}

function update(world: GameWorld, player: PlayerData, quest: QuestInfo, p: QuestProgress): void {
  emit(world, player.characterId, 'questUpdate', questView(quest, p));
  stateChanged(world, player);
}

/** Why a player cannot start a quest, or null. */
function refusal(world: GameWorld, player: PlayerData, quest: QuestInfo): string | null {
  const done = sliceOf(player).quests;
  for (const q of quest.requiredQuests) {
    if (done[q]?.status !== 'completed') {
      const name = questsOf(world).get(q)?.name ?? q;
      return `Quest "${name}" must be completed first`;
    }
  }
  for (const [skill, level] of Object.entries(quest.requiredSkills) as [Skill, number][]) {
    if (player.state.skills[skill].level < level)
      return `${skill[0]?.toUpperCase()}${skill.slice(1)} level ${level} required`;
  }
  return null;
}

/**
 * Start a quest (its requirements checked). `npcId`: the NPC the player is talking to, whose first
 * dialogue stage this talk completes. True when it started.
 */
export function startQuest(
  world: GameWorld,
  player: PlayerData,
  questId: string,
  npcId: string | undefined,
  origin?: string,
): boolean {
  const quest = questsOf(world).get(questId);
  const id = player.characterId;
  if (!quest) {
    emitError(world, id, 'NOT_FOUND', `no quest ${questId}`, origin);
    return false;
  }
  const slice = sliceOf(player);
  const current = slice.quests[questId];
  if (current?.status === 'in_progress') {
    emitError(world, id, 'BUSY', `you are already doing ${quest.name}`, origin);
    return false;
  }
  if (current?.status === 'completed' && !quest.replayable) {
    emitError(world, id, 'REQUIREMENT_NOT_MET', `you have completed ${quest.name}`, origin);
    return false;
  }
  const why = refusal(world, player, quest);
  if (why) {
    emitError(world, id, 'REQUIREMENT_NOT_MET', why, origin);
    return false;
  }
  if (quest.onStartItems.length > 0) {
    if (itemsLocked(world, player, origin)) return false;
    const purse = holdingsOf(player);
    if (!quest.onStartItems.every((s) => addItem(world.content, purse, s.itemId, s.quantity))) {
      emitError(world, id, 'INVENTORY_FULL', `make room for the items of ${quest.name}`, origin);
      return false;
    }
    player.state.inventory = purse.inventory;
    player.state.coins = purse.coins;
    itemsChanged(world, player);
  }
  const p: QuestProgress = { status: 'in_progress', stage: 0, progress: 0 };
  slice.quests[questId] = p;
  // The talk that starts a quest is its first step when that step is a talk with this NPC: the one
  // update sent names the step after it, never a "talk to <the NPC you are talking to>" already done.
  const first = quest.stages[0];
  if (npcId !== undefined && first?.type === 'dialogue' && first.npcId === npcId)
    advance(world, player, quest, p);
  else update(world, player, quest, p);
  if (npcId !== undefined) talkedTo(world, player, npcId);
  return true;
}

/** Move to the next stage, or complete the quest after the last. */
function advance(world: GameWorld, player: PlayerData, quest: QuestInfo, p: QuestProgress): void {
  p.stage += 1;
  p.progress = 0;
  if (p.stage < quest.stages.length) {
    update(world, player, quest, p);
    return;
  }
  stateChanged(world, player);
  tryComplete(world, player, quest, p, true);
}

/**
 * The rewards of a quest whose last stage is done: given now, or kept due (questsSystem retries each
 * tick) while the player's items are locked or the reward items do not fit the inventory (`tell`: say so).
 */
function tryComplete(
  world: GameWorld,
  player: PlayerData,
  quest: QuestInfo,
  p: QuestProgress,
  tell: boolean,
): void {
  const due = world.get(QUESTS).rewardsDue;
  if (itemLockOf(world, player)) {
    due.add(player.characterId);
    return;
  }
  const purse = rewardPurse(world, player, quest.rewardItems);
  if (!purse) {
    due.add(player.characterId);
    if (tell)
      emitError(
        world,
        player.characterId,
        'INVENTORY_FULL',
        `make room for the rewards of ${quest.name}`,
        undefined,
      );
    return;
  }
  complete(world, player, quest, p, purse);
}

function complete(
  world: GameWorld,
  player: PlayerData,
  quest: QuestInfo,
  p: QuestProgress,
  purse: { inventory: (ItemStack | null)[]; coins: number },
): void {
  p.status = 'completed';
  p.stage = quest.stages.length - 1;
  const slice = sliceOf(player);
  slice.points += quest.rewardQuestPoints;
  if (quest.rewardItems.length > 0) {
    player.state.inventory = purse.inventory;
    player.state.coins = purse.coins;
    itemsChanged(world, player);
  }
  for (const [skill, xp] of Object.entries(quest.rewardXp) as [Skill, number][])
    grantXp(world, player, skill, xp);
  player.syncDirty = true;
  update(world, player, quest, p);
}

/** The inventory and pouch with the reward items added, or null when they do not all fit. */
function rewardPurse(
  world: GameWorld,
  player: PlayerData,
  items: readonly ItemStack[],
): { inventory: (ItemStack | null)[]; coins: number } | null {
  const purse = holdingsOf(player);
  for (const s of items) if (!addItem(world.content, purse, s.itemId, s.quantity)) return null;
  return purse;
}

/** Each in-progress quest with its current stage. */
function* active(world: GameWorld, player: PlayerData) {
  const slice = player.state.slices?.quests;
  if (!slice) return;
  for (const [questId, p] of Object.entries(slice.quests)) {
    if (p.status !== 'in_progress') continue;
    const quest = questsOf(world).get(questId);
    const stage = quest?.stages[p.stage];
    if (quest && stage) yield { quest, p, stage };
  }
}

/**
 * The player talks to an NPC (a dialogue opened, or a quest started by it): dialogue stages with it
 * complete, deliver stages to it take the items when the player holds them. Repeated while a stage
 * completed (a delivery followed by a report to the same NPC is one talk).
 */
export function talkedTo(world: GameWorld, player: PlayerData, npcId: string): void {
  settleDue(world, player, false);
  for (let guard = 0; guard < 64; guard++) {
    let moved = false;
    for (const { quest, p, stage } of active(world, player)) {
      if (stage.npcId !== npcId) continue;
      if (stage.type === 'dialogue') {
        advance(world, player, quest, p);
        moved = true;
      } else if (
        stage.type === 'deliver' &&
        stage.target !== undefined &&
        deliver(world, player, stage.target, stage.count)
      ) {
        advance(world, player, quest, p);
        moved = true;
      }
    }
    if (!moved) return;
  }
}

function deliver(world: GameWorld, player: PlayerData, itemId: string, count: number): boolean {
  if (itemLockOf(world, player)) return false;
  const held = itemId === COINS ? player.state.coins : countItem(player.state.inventory, itemId);
  if (held < count) return false;
  if (itemId === COINS) player.state.coins -= count;
  else {
    let left = count;
    const inv = player.state.inventory;
    for (let i = 0; i < inv.length && left > 0; i++) {
      const s = inv[i];
      if (s?.itemId !== itemId) continue;
      const taken = Math.min(left, s.quantity);
      s.quantity -= taken;
      left -= taken;
      if (s.quantity === 0) inv[i] = null;
    }
  }
  itemsChanged(world, player);
  return true;
}

/** Count towards `kill` / `gather` / `interact` stages whose target matches. */
function count(
  world: GameWorld,
  player: PlayerData,
  kinds: readonly string[],
  target: string,
  n: number,
): void {
  for (const { quest, p, stage } of [...active(world, player)]) {
    if (!kinds.includes(stage.type) || stage.target !== target) continue;
    p.progress = Math.min(stage.count, p.progress + n);
    if (p.progress >= stage.count) advance(world, player, quest, p);
    else update(world, player, quest, p);
  }
}

export function onNpcKilled(world: GameWorld, player: PlayerData, npcId: string): void {
  count(world, player, ['kill'], npcId, 1);
}

export function onItemGathered(world: GameWorld, player: PlayerData, itemId: string, quantity: number): void {
  count(world, player, ['gather'], itemId, quantity);
}

export function onItemMade(world: GameWorld, player: PlayerData, itemId: string, quantity: number): void {
  count(world, player, ['interact'], itemId, quantity);
}

/**
 * The player's status in a quest as an NPC sees it: `ready_to_complete` when it is in progress and a talk
 * to this NPC would finish its current stage (a report, or a delivery whose items the player holds).
 */
export function questStatusFor(
  world: GameWorld,
  player: PlayerData,
  questId: string,
  npcId: string,
): 'not_started' | 'in_progress' | 'ready_to_complete' | 'completed' {
  const p = player.state.slices?.quests?.quests[questId];
  const quest = questsOf(world).get(questId);
  if (!p || !quest) return 'not_started';
  if (p.status === 'completed') return 'completed';
  const stage = quest.stages[p.stage];
  if (!stage) return 'ready_to_complete';
  if (stage.npcId === npcId && stage.type === 'dialogue') return 'ready_to_complete';
  if (stage.npcId === npcId && stage.type === 'deliver' && stage.target !== undefined) {
    const held =
      stage.target === COINS ? player.state.coins : countItem(player.state.inventory, stage.target);
    if (held >= stage.count) return 'ready_to_complete';
  }
  return 'in_progress';
}

/** `quest:start {questId}` within QUEST_START_RANGE of the quest's start NPC. */
export function handleQuestStart(world: GameWorld, cmd: CommandOf<'questStart'>): void {
  const player = world.players.get(cmd.characterId);
  if (!player) return;
  const quest = questsOf(world).get(cmd.questId);
  if (!quest) {
    emitError(world, player.characterId, 'NOT_FOUND', `no quest ${cmd.questId}`, cmd.origin);
    return;
  }
  const pos = world.c.Position;
  const px = pos.x[player.eid] as number;
  const pz = pos.z[player.eid] as number;
  let near = false;
  for (const npc of world.get(NPCS).byEid.values()) {
    if (npc.npcId !== quest.startNpc) continue;
    const d = Math.max(Math.abs((pos.x[npc.eid] as number) - px), Math.abs((pos.z[npc.eid] as number) - pz));
    if (d <= QUEST_START_RANGE) near = true;
  }
  if (!near) {
    emitError(
      world,
      player.characterId,
      'TOO_FAR',
      `talk to ${quest.startNpc} to start ${quest.name}`,
      cmd.origin,
    );
    return;
  }
  startQuest(world, player, quest.id, quest.startNpc, cmd.origin);
}

/** `quest:list`: every quest of the world with the player's status, and its quest points. */
export function handleQuestList(world: GameWorld, cmd: CommandOf<'questList'>): void {
  const player = world.players.get(cmd.characterId);
  if (!player) return;
  settleDue(world, player, false);
  const mine = player.state.slices?.quests?.quests ?? {};
  const quests = [...questsOf(world).values()].map((q) => ({ ...questView(q, mine[q.id]), name: q.name }));
  emit(world, player.characterId, 'questList', { quests, questPoints: questPoints(player) });
}

/** System: rewards still due (items locked, or no room) are given on the first tick they can be. */
export function questsSystem(world: GameWorld): void {
  const due = world.get(QUESTS).rewardsDue;
  if (due.size === 0) return;
  for (const id of [...due]) {
    const player = world.players.get(id);
    if (!player) {
      due.delete(id);
      continue;
    }
    due.delete(id);
    settleDue(world, player, false);
  }
}

/**
 * Give the rewards of quests whose last stage is done, when the items are free (also after a relog that
 * happened between the last stage and its rewards).
 */
function settleDue(world: GameWorld, player: PlayerData, tell: boolean): void {
  const slice = player.state.slices?.quests;
  if (!slice) return;
  for (const [questId, p] of Object.entries(slice.quests)) {
    const quest = questsOf(world).get(questId);
    if (quest && p.status === 'in_progress' && p.stage >= quest.stages.length)
      tryComplete(world, player, quest, p, tell);
  }
}

export function onLeave(world: GameWorld, player: PlayerData): void {
  world.get(QUESTS).rewardsDue.delete(player.characterId);
}
