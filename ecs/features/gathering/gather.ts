import { Dirty } from '../../core/components.ts';
import type { Hasher } from '../../core/hasher.ts';
import { grantXp, itemsChanged } from '../../core/players.ts';
import { itemGathered, itemLockOf } from '../../core/reactions.ts';
import {
  emit,
  emitError,
  type GameWorld,
  markDirty,
  markPosition,
  type PlayerData,
} from '../../core/world.ts';
import { addItem, countItem, freeSlots, isStackable, MAX_STACK } from '../inventory/index.ts';
import { RESOURCES, type ResourceData } from '../resources/index.ts';
import type { GatheringNode, HarvestYield, ToolInfo } from './content.ts';
import type { GatheringStopReason } from './events.ts';
import { GATHER_REACH, GATHERING, type Gatherer } from './state.ts';
import { bestTool, itemName, skillName } from './tools.ts';

/**
 * Gathering (woodcutting, mining, fishing): `player:action gather` on a resource node. Checks, in order:
 * the node (a resource, not depleted), the skill level, the tool, the secondary item (bait), room in the
 * inventory. Then every cycle (the best tool's `rollTicks`, else the node's `baseCycleTicks`) a roll
 * from level and tool may give the yields and their xp; a yield may deplete the node for `respawnTicks`.
 * Formulas are in docs/skills.md.
 */

export function gatherAction(world: GameWorld, player: PlayerData, targetId: string, origin?: string): void {
  const eid = world.eidByWireId.get(targetId);
  const res = eid === undefined ? undefined : world.get(RESOURCES).byEid.get(eid);
  const node = res ? world.content.gatheringNodes?.get(res.resourceId) : undefined;
  const to = player.characterId;
  if (!res || !node) {
    emitError(world, to, 'INVALID_TARGET', 'There is nothing to gather there.', origin);
    return;
  }
  if (res.depletedUntilTick > world.tick) {
    emitError(world, to, 'INVALID_TARGET', `The ${node.name} has nothing left for now.`, origin);
    return;
  }
  const lock = itemLockOf(world, player);
  if (lock) {
    emitError(world, to, lock.code, lock.message, origin);
    return;
  }
  const choice = checkGather(world, player, node);
  if (!choice.ok) {
    emitError(world, to, choice.code, choice.message, origin);
    return;
  }
  const state = world.get(GATHERING);
  stopGathering(world, player, 'interrupted');
  state.gatherers.set(to, {
    resourceEid: res.eid,
    nodeId: node.id,
    nextTick: world.tick + cycleTicks(world, choice.tool, node),
  });
  emit(world, to, 'gatheringStart', { resourceId: node.id, skill: node.skill });
}

type Refusal = {
  ok: false;
  code: 'LEVEL_TOO_LOW' | 'MISSING_TOOL' | 'MISSING_ITEMS' | 'INVENTORY_FULL';
  message: string;
};

/** Level, tool, secondary item, room: the first that fails, else the tool to use. */
function checkGather(
  world: GameWorld,
  player: PlayerData,
  node: GatheringNode,
): Refusal | { ok: true; tool: ToolInfo; rank: number } {
  const level = player.state.skills[node.skill].level;
  if (level < node.levelRequired) {
    const message = `${skillName(node.skill)} level ${node.levelRequired} required`;
    return { ok: false, code: 'LEVEL_TOO_LOW', message };
  }
  const choice = bestTool(world, player, node);
  if (!choice.ok) return choice;
  if (node.secondaryRequired && countItem(player.state.inventory, node.secondaryRequired) === 0) {
    const message = `You need ${itemName(world, node.secondaryRequired)}.`;
    return { ok: false, code: 'MISSING_ITEMS', message };
  }
  if (!roomFor(world, player, node)) {
    return { ok: false, code: 'INVENTORY_FULL', message: 'Your inventory is full.' };
  }
  return choice;
}

/** The yields the player's level allows (every yield has a level; 1 when the manifest gives none). */
function eligibleYields(node: GatheringNode, level: number): HarvestYield[] {
  return node.yields.filter((y) => y.levelRequired <= level);
}

/** Room for the node's main yield (the first the level allows). */
function roomFor(world: GameWorld, player: PlayerData, node: GatheringNode): boolean {
  const main = eligibleYields(node, player.state.skills[node.skill].level)[0];
  if (!main) return true;
  return fits(world, player, main.itemId, main.quantity);
}

/** Whether `quantity` of an item would fit, without copying the inventory. */
function fits(world: GameWorld, player: PlayerData, itemId: string, quantity: number): boolean {
  const inv = player.state.inventory;
  if (isStackable(world.content, itemId)) {
    const stack = inv.find((s) => s?.itemId === itemId);
    return stack ? stack.quantity + quantity <= MAX_STACK : freeSlots(inv) > 0;
  }
  return freeSlots(inv) >= quantity;
}

function cycleTicks(
  world: GameWorld,
  tool: { rollTicks: number | null; bonusTickChance: number; bonusRollTicks: number | null },
  node?: GatheringNode,
): number {
  if (tool.bonusRollTicks !== null && tool.bonusTickChance > 0 && world.rng.chance(tool.bonusTickChance)) {
    return tool.bonusRollTicks;
  }
  return tool.rollTicks ?? node?.baseCycleTicks ?? 4;
}

/** End a player's gathering (no event when it was not gathering). `reason` null: silently (leaving). */
export function stopGathering(
  world: GameWorld,
  player: PlayerData,
  reason: GatheringStopReason | null,
): void {
  if (!world.get(GATHERING).gatherers.delete(player.characterId)) return;
  if (reason) emit(world, player.characterId, 'gatheringStop', { reason });
}

export function isGathering(world: GameWorld, player: PlayerData): boolean {
  return world.get(GATHERING).gatherers.has(player.characterId);
}

/** Populate: nodes whose content makes them move (fishing spots with `moveTicks`) start their clock. */
export function registerMovingNodes(world: GameWorld): void {
  const state = world.get(GATHERING);
  const p = world.c.Position;
  for (const r of world.get(RESOURCES).byEid.values()) {
    const node = world.content.gatheringNodes?.get(r.resourceId);
    if (!node || node.moveTicks <= 0) continue;
    const homeX = p.x[r.eid] as number;
    const homeZ = p.z[r.eid] as number;
    state.moving.set(r.eid, { homeX, homeZ, nextTick: world.tick + node.moveTicks });
  }
}

/**
 * A moving node whose time came goes to another walkable tile within `moveRadius` of its content
 * position (up to 8 tries with the world's generator; it stays when none is found). Its gatherers stop
 * (`depleted`: the spot is gone from where they fish); viewers see the new position.
 */
function moveNodes(world: GameWorld): void {
  const state = world.get(GATHERING);
  const p = world.c.Position;
  const map = world.content.map;
  for (const [eid, m] of state.moving) {
    if (m.nextTick > world.tick) continue;
    const res = world.get(RESOURCES).byEid.get(eid);
    const node = res ? world.content.gatheringNodes?.get(res.resourceId) : undefined;
    if (!res || !node) {
      state.moving.delete(eid);
      continue;
    }
    m.nextTick = world.tick + node.moveTicks;
    const r = node.moveRadius;
    for (let i = 0; i < 8; i++) {
      const x = m.homeX + world.rng.int(-r, r);
      const z = m.homeZ + world.rng.int(-r, r);
      if ((x === p.x[eid] && z === p.z[eid]) || !map.isWalkable(x, z)) continue;
      markPosition(world, eid, x, z);
      stopGatherersOf(world, eid, 'depleted');
      break;
    }
  }
}

function stopGatherersOf(world: GameWorld, eid: number, reason: GatheringStopReason): void {
  const state = world.get(GATHERING);
  for (const [id, g] of state.gatherers) {
    if (g.resourceEid !== eid) continue;
    const p = world.players.get(id);
    if (p) stopGathering(world, p, reason);
    else state.gatherers.delete(id);
  }
}

/** System: respawn depleted nodes whose time came, move moving ones, then roll for every gatherer whose cycle ended. */
export function gatheringSystem(world: GameWorld): void {
  const state = world.get(GATHERING);
  if (state.moving.size > 0) moveNodes(world);
  if (state.depleted.size > 0) {
    const nodes = world.get(RESOURCES).byEid;
    for (const eid of state.depleted) {
      const r = nodes.get(eid);
      if (r && r.depletedUntilTick > world.tick) continue;
      state.depleted.delete(eid);
      if (r) markDirty(world, eid, Dirty.depleted);
    }
  }
  if (state.gatherers.size === 0) return;
  for (const [id, g] of state.gatherers) {
    if (g.nextTick > world.tick) continue;
    const player = world.players.get(id);
    if (!player) {
      state.gatherers.delete(id);
      continue;
    }
    cycle(world, player, g);
  }
}

function cycle(world: GameWorld, player: PlayerData, g: Gatherer): void {
  const res = world.get(RESOURCES).byEid.get(g.resourceEid);
  const node = world.content.gatheringNodes?.get(g.nodeId);
  if (!res || !node || res.resourceId !== g.nodeId || !inReach(world, player, g.resourceEid)) {
    stopGathering(world, player, 'interrupted');
    return;
  }
  if (res.depletedUntilTick > world.tick) {
    stopGathering(world, player, 'depleted');
    return;
  }
  if (itemLockOf(world, player)) {
    stopGathering(world, player, 'interrupted');
    return;
  }
  const choice = checkGather(world, player, node);
  if (!choice.ok) {
    stopGathering(world, player, choice.code === 'INVENTORY_FULL' ? 'inventory_full' : 'interrupted');
    return;
  }
  g.nextTick = world.tick + cycleTicks(world, choice.tool, node);
  const level = player.state.skills[node.skill].level;
  const gained = roll(world, node, level, choice.rank);
  if (gained.length === 0) return;
  if (node.secondaryRequired) takeOne(player, node.secondaryRequired);
  for (const y of gained) {
    if (!addItem(world.content, player.state, y.itemId, y.quantity)) continue;
    itemsChanged(world, player);
    if (y.xp > 0) grantXp(world, player, node.skill, y.xp);
    itemGathered(world, player, y.itemId, y.quantity);
  }
  if (node.depleteChance > 0 && node.respawnTicks > 0 && world.rng.chance(node.depleteChance)) {
    deplete(world, res, node);
    return;
  }
  if (!roomFor(world, player, node)) stopGathering(world, player, 'inventory_full');
  else if (node.secondaryRequired && countItem(player.state.inventory, node.secondaryRequired) === 0) {
    stopGathering(world, player, 'interrupted');
  }
}

/**
 * One roll. Yields with catch rates (`catchLow`/`catchHigh`, fishing) are tried from the highest level
 * down, each with its own chance, and at most one is caught. Otherwise one success roll
 * (successChance) gives every yield the level allows, each with its `chance`.
 */
function roll(world: GameWorld, node: GatheringNode, level: number, toolRank: number): HarvestYield[] {
  const yields = eligibleYields(node, level);
  if (yields.some((y) => y.catchLow !== null && y.catchHigh !== null)) {
    const byLevel = [...yields].sort((a, b) => b.levelRequired - a.levelRequired);
    for (const y of byLevel) if (world.rng.chance(catchChance(y, level))) return [y];
    return [];
  }
  if (!world.rng.chance(successChance(level, node.levelRequired, toolRank))) return [];
  return yields.filter((y) => y.chance >= 1 || world.rng.chance(y.chance));
}

/** The classic interpolation: (1 + floor(low·(99−L)/98 + high·(L−1)/98)) / 256. */
export function catchChance(y: HarvestYield, level: number): number {
  const low = y.catchLow ?? 0;
  const high = y.catchHigh ?? 0;
  const l = Math.min(99, Math.max(1, level));
  return Math.min(1, (1 + Math.floor((low * (99 - l)) / 98 + (high * (l - 1)) / 98)) / 256);
}

/** 35 % at the node's level, +1 % per level above it, +5 % per tool rank, within 5 %..95 %. */
export function successChance(level: number, levelRequired: number, toolRank: number): number {
  return Math.min(0.95, Math.max(0.05, 0.35 + 0.01 * (level - levelRequired) + 0.05 * toolRank));
}

function deplete(world: GameWorld, res: ResourceData, node: GatheringNode): void {
  res.depletedUntilTick = world.tick + node.respawnTicks;
  markDirty(world, res.eid, Dirty.depleted);
  const state = world.get(GATHERING);
  state.depleted.add(res.eid);
  stopGatherersOf(world, res.eid, 'depleted');
}

function takeOne(player: PlayerData, itemId: string): void {
  const inv = player.state.inventory;
  const i = inv.findIndex((s) => s?.itemId === itemId);
  const s = inv[i];
  if (!s) return;
  s.quantity -= 1;
  if (s.quantity <= 0) inv[i] = null;
}

function inReach(world: GameWorld, player: PlayerData, eid: number): boolean {
  const p = world.c.Position;
  const d = Math.max(
    Math.abs((p.x[player.eid] as number) - (p.x[eid] as number)),
    Math.abs((p.z[player.eid] as number) - (p.z[eid] as number)),
  );
  return d <= GATHER_REACH;
}

export function hashGathering(world: GameWorld, h: Hasher): void {
  const state = world.get(GATHERING);
  for (const [id, g] of state.gatherers) {
    h.str(id);
    h.int(g.resourceEid);
    h.str(g.nodeId);
    h.int(g.nextTick);
  }
  for (const eid of state.depleted) h.int(eid);
  for (const [eid, m] of state.moving) {
    h.int(eid);
    h.int(m.nextTick);
  }
}

export const onMove = (world: GameWorld, player: PlayerData) => stopGathering(world, player, 'moved');
export const onInterrupt = (world: GameWorld, player: PlayerData) =>
  stopGathering(world, player, 'interrupted');
export const onLeave = (world: GameWorld, player: PlayerData) => stopGathering(world, player, null);
