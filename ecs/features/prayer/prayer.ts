import type { CommandOf } from '../../core/commands.ts';
import { Dirty } from '../../core/components.ts';
import { itemsChanged, stateChanged } from '../../core/players.ts';
import { combatLevel, levelForXp, MAX_XP } from '../../core/skills.ts';
import { emit, emitError, type GameWorld, markDirty, type PlayerData } from '../../core/world.ts';
import { stationOf } from '../stations/index.ts';
import { PRAYERS, type PrayerData } from './state.ts';

/**
 * Prayer points (the prayer level at most), prayers switched on and off, their drain, the altar that
 * restores the points, and bones buried for prayer xp. The points survive a relog (slice `prayer`);
 * active prayers do not.
 */

export function maxPoints(player: PlayerData): number {
  return player.state.skills.prayer.level;
}

/** The player's prayer state, created from its saved points on first use. */
export function prayerOf(world: GameWorld, player: PlayerData): PrayerData {
  const all = world.get(PRAYERS);
  let d = all.get(player.characterId);
  if (!d) {
    const saved = player.state.slices?.prayer?.points;
    const max = maxPoints(player);
    d = { points: saved === undefined ? max : Math.max(0, Math.min(max, saved)), active: [], drain: 0 };
    all.set(player.characterId, d);
    // The slice holds the points the player has from now on, not only once some are spent: the max
    // follows the level, so a level-up would otherwise turn these into a full refill at the next login.
    if (saved !== d.points) player.state.slices = { ...player.state.slices, prayer: { points: d.points } };
  }
  return d;
}

function setPoints(world: GameWorld, player: PlayerData, d: PrayerData, points: number): void {
  if (d.points === points) return;
  d.points = points;
  player.state.slices = { ...player.state.slices, prayer: { points } };
  stateChanged(world, player);
}

export function sendState(world: GameWorld, player: PlayerData): void {
  const d = prayerOf(world, player);
  emit(world, player.characterId, 'prayerState', {
    points: d.points,
    maxPoints: maxPoints(player),
    active: [...d.active],
  });
}

/** Restore all points (altar, /heal). */
export function restorePrayer(world: GameWorld, player: PlayerData): void {
  setPoints(world, player, prayerOf(world, player), maxPoints(player));
  sendState(world, player);
}

export function handleToggle(world: GameWorld, cmd: CommandOf<'prayerToggle'>): void {
  const player = world.players.get(cmd.characterId);
  if (!player) return;
  const info = world.content.prayers?.get(cmd.prayerId);
  if (!info) {
    emitError(world, player.characterId, 'NOT_FOUND', `no prayer ${cmd.prayerId}`, cmd.origin);
    return;
  }
  const d = prayerOf(world, player);
  if (!cmd.active) {
    if (d.active.includes(info.id)) {
      d.active = d.active.filter((id) => id !== info.id);
      sendState(world, player);
    }
    return;
  }
  if (d.active.includes(info.id)) return;
  if (player.state.skills.prayer.level < info.level) {
    emitError(world, player.characterId, 'LEVEL_TOO_LOW', `Prayer level ${info.level} required`, cmd.origin);
    return;
  }
  if (d.points <= 0) {
    emitError(
      world,
      player.characterId,
      'REQUIREMENT_NOT_MET',
      'You have no prayer points left; recharge at an altar',
      cmd.origin,
    );
    return;
  }
  // A conflict listed on either side switches the other off.
  d.active = d.active.filter((id) => {
    const other = world.content.prayers?.get(id);
    return !info.conflicts.includes(id) && !other?.conflicts.includes(info.id);
  });
  d.active.push(info.id);
  sendState(world, player);
}

export function handleDeactivateAll(world: GameWorld, cmd: CommandOf<'prayerDeactivateAll'>): void {
  const player = world.players.get(cmd.characterId);
  if (!player) return;
  const d = prayerOf(world, player);
  d.active = [];
  sendState(world, player);
}

/** Drain resistance: 2 × the prayer bonus of worn items + 60. */
export function drainResistance(world: GameWorld, player: PlayerData): number {
  let bonus = 0;
  for (const st of Object.values(player.state.equipment))
    if (st) bonus += world.content.items.get(st.itemId)?.bonuses.prayer ?? 0;
  return 2 * bonus + 60;
}

/**
 * System: players entering the world get their prayer state; each tick the active prayers add their
 * `drainEffect` to a counter, and every time it passes the drain resistance one point goes. At 0 every
 * prayer switches off.
 */
export function prayerSystem(world: GameWorld): void {
  for (const eid of world.spawned) {
    const player = world.playerByEid.get(eid);
    if (player) sendState(world, player);
  }
  for (const [id, d] of world.get(PRAYERS)) {
    if (d.active.length === 0) continue;
    const player = world.players.get(id);
    if (!player) continue;
    for (const pid of d.active) d.drain += world.content.prayers?.get(pid)?.drainEffect ?? 0;
    const resistance = drainResistance(world, player);
    let points = d.points;
    while (d.drain > resistance && points > 0) {
      d.drain -= resistance;
      points -= 1;
    }
    if (points !== d.points) {
      setPoints(world, player, d, points);
      if (points === 0) {
        d.active = [];
        d.drain = 0;
      }
      sendState(world, player);
    }
  }
}

/** `player:action pray` at an altar: all points back. */
export function handlePray(world: GameWorld, player: PlayerData, targetId: string, origin?: string): void {
  const eid = world.eidByWireId.get(targetId);
  if (eid === undefined || stationOf(world, eid)?.stationType !== 'altar') {
    emitError(world, player.characterId, 'INVALID_TARGET', 'you can only pray at an altar', origin);
    return;
  }
  restorePrayer(world, player);
}

/** `itemUse` reaction: bones (an item with prayer xp) used on nothing are buried. */
export function buryBones(world: GameWorld, player: PlayerData, cmd: CommandOf<'inventoryUse'>): boolean {
  if (cmd.targetSlot !== undefined || cmd.targetId !== undefined) return false;
  const stack = player.state.inventory[cmd.slot];
  const xp = stack ? (world.content.items.get(stack.itemId)?.prayerXp ?? 0) : 0;
  if (!stack || xp <= 0) return false;
  if (stack.quantity > 1) stack.quantity -= 1;
  else player.state.inventory[cmd.slot] = null;
  itemsChanged(world, player);
  const sv = player.state.skills.prayer;
  const gained = Math.min(Math.round(xp), MAX_XP - sv.xp);
  const before = combatLevel(player.state.skills);
  const level = sv.level;
  sv.xp += gained;
  sv.level = levelForXp(sv.xp);
  emit(world, player.characterId, 'skillXp', { skill: 'prayer', xp: sv.xp, gained, level: sv.level });
  if (combatLevel(player.state.skills) !== before) markDirty(world, player.eid, Dirty.level);
  if (sv.level !== level) sendState(world, player); // maxPoints grew
  stateChanged(world, player, true);
  return true;
}

/** `leave` reaction: the player's prayer state goes (its points were saved with the character). */
export function onLeave(world: GameWorld, player: PlayerData): void {
  world.get(PRAYERS).delete(player.characterId);
}

/** `death` reaction: prayers switch off. */
export function onDeath(world: GameWorld, player: PlayerData): void {
  const d = prayerOf(world, player);
  if (d.active.length === 0) return;
  d.active = [];
  sendState(world, player);
}
