import type { ItemStack } from '../../core/character-state.ts';
import type { CommandOf } from '../../core/commands.ts';
import type { SimErrorCode } from '../../core/events.ts';
import type { Hasher } from '../../core/hasher.ts';
import { grantXp, itemsChanged, stateChanged } from '../../core/players.ts';
import { itemLockOf, itemMade } from '../../core/reactions.ts';
import { emit, emitError, type GameWorld, markPosition, type PlayerData } from '../../core/world.ts';
import { owns, stopGathering } from '../gathering/index.ts';
import { addItem, countItem, freeSlots, isStackable } from '../inventory/index.ts';
import { dropPath } from '../movement/index.ts';
import { placeStation, STATIONS, stationOf } from '../stations/index.ts';
import type { RecipeInfo } from './content.ts';
import type { ProcessingStopReason } from './events.ts';
import { MAX_QUANTITY, type Maker, PROCESSING, STATION_REACH } from './state.ts';

/**
 * Processing: `skill:make {recipeId, quantity?, targetId?}` makes up to 28 of a recipe, one every
 * `ticks`, at the station it needs. Every recipe kind of the content is one shape (RecipeInfo): inputs
 * consumed, tools held, outputs added, xp granted; cooking may burn, smelting may fail, firemaking lights
 * a fire station, runecrafting gives more runes per essence at higher levels, tanning costs coins.
 */

type Refusal = { code: SimErrorCode; message: string; stop: ProcessingStopReason };

const name = (world: GameWorld, itemId: string) => world.content.items.get(itemId)?.name ?? itemId;
const title = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

export function handleSkillMake(world: GameWorld, cmd: CommandOf<'skillMake'>): void {
  const player = world.players.get(cmd.characterId);
  if (!player) return;
  const quantity = Math.min(MAX_QUANTITY, Math.max(1, Math.floor(cmd.quantity ?? 1)));
  startMaking(world, player, cmd.recipeId, quantity, cmd.targetId, cmd.origin);
}

/** Start a batch of the first recipe with that id the player can make now; else the first refusal. */
export function startMaking(
  world: GameWorld,
  player: PlayerData,
  recipeId: string,
  quantity: number,
  targetId: string | undefined,
  origin: string | undefined,
  only?: number,
): boolean {
  const recipes = world.content.recipes ?? [];
  const to = player.characterId;
  const candidates: number[] = [];
  recipes.forEach((r, i) => {
    if (r.id === recipeId && (only === undefined || only === i)) candidates.push(i);
  });
  if (candidates.length === 0) {
    emitError(world, to, 'NOT_FOUND', `There is no recipe for ${recipeId}.`, origin);
    return false;
  }
  const lock = itemLockOf(world, player);
  if (lock) {
    emitError(world, to, lock.code, lock.message, origin);
    return false;
  }
  let refusal: Refusal | null = null;
  for (const index of candidates) {
    const recipe = recipes[index] as RecipeInfo;
    const station = findStation(world, player, recipe, targetId);
    const r = check(world, player, recipe, station);
    if (r) {
      refusal ??= r;
      continue;
    }
    stopGathering(world, player, 'interrupted');
    stopMaking(world, player, 'interrupted');
    world.get(PROCESSING).makers.set(to, {
      recipe: index,
      station,
      quantity,
      made: 0,
      nextTick: world.tick + recipe.ticks,
    });
    emit(world, to, 'processingStart', { recipeId, quantity });
    return true;
  }
  if (refusal) emitError(world, to, refusal.code, refusal.message, origin);
  return false;
}

/** The station a recipe would use: the target, or the nearest fitting one in reach; -1 for none. */
function findStation(world: GameWorld, player: PlayerData, recipe: RecipeInfo, targetId?: string): number {
  if (recipe.stations.length === 0) return -1;
  if (targetId !== undefined) return world.eidByWireId.get(targetId) ?? -1;
  let best = -1;
  let bestD = Number.POSITIVE_INFINITY;
  for (const s of world.get(STATIONS).byEid.values()) {
    if (!recipe.stations.includes(s.stationType)) continue;
    const d = distance(world, player.eid, s.eid);
    if (d <= STATION_REACH && d < bestD) {
      best = s.eid;
      bestD = d;
    }
  }
  return best;
}

function distance(world: GameWorld, a: number, b: number): number {
  const p = world.c.Position;
  return Math.max(
    Math.abs((p.x[a] as number) - (p.x[b] as number)),
    Math.abs((p.z[a] as number) - (p.z[b] as number)),
  );
}

/** Everything one more item needs, in order: station, level, tools, inputs, coins, room. */
function check(world: GameWorld, player: PlayerData, recipe: RecipeInfo, station: number): Refusal | null {
  const inv = player.state.inventory;
  if (recipe.stations.length > 0) {
    const st = station < 0 ? undefined : stationOf(world, station);
    if (!st || !recipe.stations.includes(st.stationType)) {
      const message = `You need a ${recipe.stations.join(' or ')} for that.`;
      return { code: 'INVALID_TARGET', message, stop: 'interrupted' };
    }
    if (distance(world, player.eid, station) > STATION_REACH) {
      return { code: 'TOO_FAR', message: `Stand next to the ${st.stationType} first.`, stop: 'moved' };
    }
  }
  if (recipe.skill && player.state.skills[recipe.skill].level < recipe.level) {
    const message = `${title(recipe.skill)} level ${recipe.level} required`;
    return { code: 'LEVEL_TOO_LOW', message, stop: 'interrupted' };
  }
  for (const tool of recipe.tools) {
    if (!owns(player, tool)) {
      return { code: 'MISSING_TOOL', message: `You need a ${name(world, tool)}.`, stop: 'interrupted' };
    }
  }
  for (const input of recipe.inputs) {
    if (countItem(inv, input.itemId) < input.quantity) {
      const message = `You need ${input.quantity} x ${name(world, input.itemId)}.`;
      return { code: 'MISSING_ITEMS', message, stop: 'missing_items' };
    }
  }
  if (recipe.anyOf.length > 0 && essenceOf(player, recipe) === null) {
    const message = `You need ${recipe.anyOf.map((i) => name(world, i)).join(' or ')}.`;
    return { code: 'MISSING_ITEMS', message, stop: 'missing_items' };
  }
  const usesLeft = world.get(PROCESSING).usesLeft;
  for (const c of recipe.consumables) {
    if ((usesLeft.get(`${player.characterId}:${c.itemId}`) ?? 0) <= 0 && countItem(inv, c.itemId) === 0) {
      return { code: 'MISSING_ITEMS', message: `You need ${name(world, c.itemId)}.`, stop: 'missing_items' };
    }
  }
  if (player.state.coins < recipe.coins) {
    const message = `You need ${recipe.coins} coins.`;
    return { code: 'INSUFFICIENT_FUNDS', message, stop: 'missing_items' };
  }
  if (recipe.kind === 'firemaking' && stationOnTile(world, player)) {
    return { code: 'INVALID_TARGET', message: "You can't light a fire here.", stop: 'interrupted' };
  }
  if (!roomForOutputs(world, player, recipe)) {
    return { code: 'INVENTORY_FULL', message: 'Your inventory is full.', stop: 'inventory_full' };
  }
  return null;
}

/** Room for one item's outputs once its inputs are taken (a trial on a copy only when slots are short). */
function roomForOutputs(world: GameWorld, player: PlayerData, recipe: RecipeInfo): boolean {
  const inv = player.state.inventory;
  const outputs = outputsOf(player, recipe);
  let slots = 0;
  for (const o of outputs) slots += isStackable(world.content, o.itemId) ? 1 : o.quantity;
  if (freeSlots(inv) >= slots) return true;
  const trial = { inventory: inv.map((s) => (s ? { ...s } : null)), coins: player.state.coins };
  consume(world, player, recipe, trial.inventory, false);
  for (const out of outputs) if (!addItem(world.content, trial, out.itemId, out.quantity)) return false;
  return true;
}

function stationOnTile(world: GameWorld, player: PlayerData): boolean {
  const p = world.c.Position;
  for (const s of world.get(STATIONS).byEid.values()) {
    if (p.x[s.eid] === p.x[player.eid] && p.z[s.eid] === p.z[player.eid]) return true;
  }
  return false;
}

/** The first essence (of the recipe's list) the player holds, or null. */
function essenceOf(player: PlayerData, recipe: RecipeInfo): string | null {
  for (const e of recipe.anyOf) if (countItem(player.state.inventory, e) > 0) return e;
  return null;
}

/** What one item gives: runecrafting gives one more rune per multi-rune level reached. */
function outputsOf(player: PlayerData, recipe: RecipeInfo): ItemStack[] {
  if (recipe.kind !== 'runecrafting' || recipe.skill === null) return recipe.outputs.map((o) => ({ ...o }));
  const level = player.state.skills[recipe.skill].level;
  const extra = recipe.multiLevels.filter((l) => level >= l).length;
  return recipe.outputs.map((o) => ({ itemId: o.itemId, quantity: o.quantity * (1 + extra) }));
}

/** Take the inputs, an essence and (when opening one) a consumable from `inv`. */
function consume(
  world: GameWorld,
  player: PlayerData,
  recipe: RecipeInfo,
  inv: (ItemStack | null)[],
  commit: boolean,
): void {
  for (const input of recipe.inputs) takeItem(inv, input.itemId, input.quantity);
  const essence = essenceOf(player, recipe);
  if (essence) takeItem(inv, essence, 1);
  const usesLeft = world.get(PROCESSING).usesLeft;
  for (const c of recipe.consumables) {
    const key = `${player.characterId}:${c.itemId}`;
    let left = usesLeft.get(key) ?? 0;
    if (left <= 0) {
      takeItem(inv, c.itemId, 1);
      left = c.uses;
    }
    if (commit) usesLeft.set(key, left - 1);
  }
}

function takeItem(inv: (ItemStack | null)[], itemId: string, quantity: number): void {
  let left = quantity;
  for (let i = 0; i < inv.length && left > 0; i++) {
    const s = inv[i];
    if (!s || s.itemId !== itemId) continue;
    const n = Math.min(left, s.quantity);
    s.quantity -= n;
    left -= n;
    if (s.quantity <= 0) inv[i] = null;
  }
}

/**
 * Burn chance of a cooking recipe at a station: 0 from the recipe's `stopBurnLevel` for that station
 * type (`fire`, `range`) up, else falling linearly from 50 % at the recipe's level:
 * 0.5 × (stop − level) / (stop − recipe level). No stop level for the station: it never burns.
 */
export function burnChance(recipe: RecipeInfo, level: number, stationType: string): number {
  const stop = recipe.stopBurnLevel[stationType];
  if (stop === undefined || level >= stop) return 0;
  const span = Math.max(1, stop - recipe.level);
  return Math.min(0.5, Math.max(0, (0.5 * (stop - level)) / span));
}

/** System: every batch whose item is due makes it, then stops when done or when the next cannot be made. */
export function processingSystem(world: GameWorld): void {
  const state = world.get(PROCESSING);
  if (state.makers.size === 0) return;
  const recipes = world.content.recipes ?? [];
  for (const [id, m] of state.makers) {
    if (m.nextTick > world.tick) continue;
    const player = world.players.get(id);
    const recipe = recipes[m.recipe];
    if (!player || !recipe) {
      state.makers.delete(id);
      continue;
    }
    if (itemLockOf(world, player)) {
      stopMaking(world, player, 'interrupted');
      continue;
    }
    const refusal = check(world, player, recipe, m.station);
    if (refusal) {
      stopMaking(world, player, refusal.stop);
      continue;
    }
    makeOne(world, player, recipe, m);
    m.made += 1;
    if (m.made >= m.quantity) {
      stopMaking(world, player, 'done');
      continue;
    }
    const next = check(world, player, recipe, m.station);
    if (next) stopMaking(world, player, next.stop);
    else m.nextTick = world.tick + recipe.ticks;
  }
}

function makeOne(world: GameWorld, player: PlayerData, recipe: RecipeInfo, m: Maker): void {
  const outputs = outputsOf(player, recipe);
  consume(world, player, recipe, player.state.inventory, true);
  player.state.coins -= recipe.coins;
  let xp = recipe.xp;
  if (recipe.kind === 'cooking' && recipe.skill && recipe.burnt) {
    const stationType = stationOf(world, m.station)?.stationType ?? '';
    const level = player.state.skills[recipe.skill].level;
    if (world.rng.chance(burnChance(recipe, level, stationType))) {
      outputs.splice(0, outputs.length, { itemId: recipe.burnt, quantity: 1 });
      xp = 0;
    }
  } else if (recipe.successRate < 1 && !world.rng.chance(recipe.successRate)) {
    outputs.length = 0;
    xp = 0;
  }
  for (const out of outputs) addItem(world.content, player.state, out.itemId, out.quantity);
  itemsChanged(world, player);
  if (recipe.kind === 'firemaking') lightFire(world, player, recipe);
  // Quests count what was made (a burnt item too: it is what the pan holds) and fires lit.
  for (const out of outputs) itemMade(world, player, out.itemId, out.quantity);
  if (recipe.kind === 'firemaking') itemMade(world, player, 'fire', 1);
  if (recipe.skill && xp > 0) grantXp(world, player, recipe.skill, xp);
}

/** The logs become a fire on the player's tile; the player steps aside (west, east, south, north). */
function lightFire(world: GameWorld, player: PlayerData, recipe: RecipeInfo): void {
  const p = world.c.Position;
  const x = p.x[player.eid] as number;
  const z = p.z[player.eid] as number;
  placeStation(world, 'fire', x, z, recipe.fireTicks);
  for (const [dx, dz] of [
    [-1, 0],
    [1, 0],
    [0, -1],
    [0, 1],
  ] as const) {
    if (!world.content.map.isWalkable(x + dx, z + dz)) continue;
    dropPath(world, player.eid);
    markPosition(world, player.eid, x + dx, z + dz);
    player.state.position = { x: x + dx, y: 0, z: z + dz };
    stateChanged(world, player);
    return;
  }
}

/** End a player's batch (no event when none). `reason` null: silently (leaving, dying). */
export function stopMaking(world: GameWorld, player: PlayerData, reason: ProcessingStopReason | null): void {
  const state = world.get(PROCESSING);
  const m = state.makers.get(player.characterId);
  if (!m) return;
  state.makers.delete(player.characterId);
  const recipe = world.content.recipes?.[m.recipe];
  if (reason && recipe) {
    emit(world, player.characterId, 'processingStop', { recipeId: recipe.id, made: m.made, reason });
  }
}

/**
 * `inventory:use` reaction: an item on another item (tinderbox on logs, knife on logs, needle on
 * leather) or on a station (raw fish on a range, ore on a furnace, a bar on an anvil, essence on an
 * altar) starts the first matching recipe the player's level allows (else the first matching), once.
 */
export function useItem(world: GameWorld, player: PlayerData, cmd: CommandOf<'inventoryUse'>): boolean {
  const inv = player.state.inventory;
  const a = inv[cmd.slot]?.itemId;
  if (!a) return false;
  const recipes = world.content.recipes ?? [];
  const uses = (r: RecipeInfo, item: string) =>
    r.inputs.some((i) => i.itemId === item) || r.tools.includes(item) || r.anyOf.includes(item);
  let match: (r: RecipeInfo) => boolean;
  if (cmd.targetSlot !== undefined) {
    const b = inv[cmd.targetSlot]?.itemId;
    if (!b || cmd.targetSlot === cmd.slot) return false;
    match = (r) => r.stations.length === 0 && uses(r, a) && uses(r, b);
  } else if (cmd.targetId !== undefined) {
    const eid = world.eidByWireId.get(cmd.targetId);
    const st = eid === undefined ? undefined : stationOf(world, eid);
    if (!st) return false;
    match = (r) => r.stations.includes(st.stationType) && uses(r, a);
  } else {
    return false;
  }
  const matching = recipes.map((r, i) => [r, i] as const).filter(([r]) => match(r));
  if (matching.length === 0) return false;
  const fits = matching.find(([r]) => !r.skill || player.state.skills[r.skill].level >= r.level);
  const [recipe, index] = fits ?? (matching[0] as readonly [RecipeInfo, number]);
  startMaking(world, player, recipe.id, 1, cmd.targetId, cmd.origin, index);
  return true;
}

/** `player:action use` on a station: what can be made there (`station:open`). */
export function useStation(world: GameWorld, player: PlayerData, targetId: string, origin?: string): void {
  const eid = world.eidByWireId.get(targetId);
  const st = eid === undefined ? undefined : stationOf(world, eid);
  if (!st) {
    emitError(world, player.characterId, 'INVALID_TARGET', 'That is not something you can use.', origin);
    return;
  }
  const seen = new Set<string>();
  const recipes = [];
  for (const r of world.content.recipes ?? []) {
    if (!r.stations.includes(st.stationType) || seen.has(r.id)) continue;
    seen.add(r.id);
    recipes.push({ recipeId: r.id, kind: r.kind, level: r.level });
  }
  // A station nothing is made at (a bank booth, an obstacle) is not one to `use`.
  if (recipes.length === 0) {
    emitError(
      world,
      player.characterId,
      'INVALID_TARGET',
      `There is nothing to make at the ${st.name ?? st.stationType}.`,
      origin,
    );
    return;
  }
  emit(world, player.characterId, 'stationOpen', { targetId, stationType: st.stationType, recipes });
}

export function hashProcessing(world: GameWorld, h: Hasher): void {
  const state = world.get(PROCESSING);
  for (const [id, m] of state.makers) {
    h.str(id);
    h.int(m.recipe);
    h.int(m.station);
    h.int(m.quantity);
    h.int(m.made);
    h.int(m.nextTick);
  }
  for (const [key, left] of state.usesLeft) {
    h.str(key);
    h.int(left);
  }
}

export const onMove = (world: GameWorld, player: PlayerData) => stopMaking(world, player, 'moved');
export const onInterrupt = (world: GameWorld, player: PlayerData) => stopMaking(world, player, 'interrupted');
export function onLeave(world: GameWorld, player: PlayerData): void {
  stopMaking(world, player, null);
  const usesLeft = world.get(PROCESSING).usesLeft;
  for (const key of [...usesLeft.keys()]) if (key.startsWith(`${player.characterId}:`)) usesLeft.delete(key);
}
