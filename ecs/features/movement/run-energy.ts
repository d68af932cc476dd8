import type { GameWorld, PlayerData } from '../../core/world.ts';
import { type EnergyTrack, MOVE } from './state.ts';

/**
 * Run energy: a player may run while it has energy; running drains it, anything else restores it, faster
 * with a higher agility level. Kept in hundredths of a percent in the player's `movement` slice (saved
 * with the character); players see the whole percent in player:sync. NPCs are not limited.
 */

/** Full energy: 100 %, in hundredths. */
export const MAX_RUN_ENERGY = 10_000;
/** Drained per tick a runner advances (0.67 %: about 150 ticks, 90 s, of running from full). */
export const RUN_DRAIN = 67;
/** While draining, player:sync carries a new percent at most this often (it is the largest message). */
export const RUN_SYNC_TICKS = 5;

/** Restored per tick while not running: 8 at agility 1 (12.5 minutes from empty), 24 at 99 (about 4). */
export function restorePerTick(agility: number): number {
  return 8 + Math.floor(agility / 6);
}

/** The player's energy slice, made full when the character has none (a new character). */
function sliceOf(player: PlayerData): { runEnergy: number } {
  let slice = player.state.slices?.movement;
  if (slice === undefined) {
    slice = { runEnergy: MAX_RUN_ENERGY };
    player.state.slices = { ...player.state.slices, movement: slice };
  }
  return slice;
}

/** The player's energy in hundredths of a percent. */
export function runEnergy(player: PlayerData): number {
  return player.state.slices?.movement?.runEnergy ?? MAX_RUN_ENERGY;
}

/** What player:sync shows: the whole percent. */
export function runEnergyPercent(player: PlayerData): number {
  return Math.floor(runEnergy(player) / 100);
}

/** Whether a run of this entity may start now: NPCs always, players with one tick's drain left. */
export function mayRun(world: GameWorld, eid: number): boolean {
  const player = world.playerByEid.get(eid);
  return player === undefined || runEnergy(player) >= RUN_DRAIN;
}

function track(world: GameWorld, player: PlayerData): EnergyTrack {
  const tracks = world.get(MOVE).energy;
  let t = tracks.get(player.characterId);
  if (t === undefined) {
    const slice = sliceOf(player);
    t = { player, slice, sentPercent: Math.floor(slice.runEnergy / 100), sentTick: world.tick, ranTick: -1 };
    tracks.set(player.characterId, t);
  }
  return t;
}

/** `join` reaction: energy as saved (clamped), or full; tracked while it is not full. */
export function onJoin(world: GameWorld, player: PlayerData): void {
  const slice = sliceOf(player);
  slice.runEnergy = Math.max(0, Math.min(MAX_RUN_ENERGY, Math.round(slice.runEnergy)));
  if (slice.runEnergy < MAX_RUN_ENERGY) track(world, player);
}

/** Set a player's energy (hundredths of a percent); it is tracked until full again. */
export function setRunEnergy(world: GameWorld, player: PlayerData, value: number): void {
  const t = track(world, player);
  t.slice.runEnergy = Math.max(0, Math.min(MAX_RUN_ENERGY, Math.round(value)));
  changed(world, t, false);
}

export function onLeave(world: GameWorld, player: PlayerData): void {
  world.get(MOVE).energy.delete(player.characterId);
}

/** A whole percent changed: ask for a player:sync (rate-limited while draining) and a save. */
function changed(world: GameWorld, t: EnergyTrack, draining: boolean): void {
  const percent = Math.floor(t.slice.runEnergy / 100);
  if (percent === t.sentPercent) return;
  world.persist.dirty.add(t.player.characterId);
  if (draining && percent !== 0 && percent !== 100 && world.tick - t.sentTick < RUN_SYNC_TICKS) return;
  t.player.syncDirty = true;
  t.sentPercent = percent;
  t.sentTick = world.tick;
}

/**
 * A player runner is about to advance: false when it has less than one tick's drain (it walks from now
 * on), else the drain is taken.
 */
export function drainRunner(world: GameWorld, player: PlayerData): boolean {
  const t = track(world, player);
  if (t.slice.runEnergy < RUN_DRAIN) return false;
  t.slice.runEnergy -= RUN_DRAIN;
  t.ranTick = world.tick;
  changed(world, t, true);
  return true;
}

/** System (after movement): players who did not run this tick get energy back; full ones are let go. */
export function runEnergySystem(world: GameWorld): void {
  const tracks = world.get(MOVE).energy;
  if (tracks.size === 0) return;
  for (const t of tracks.values()) {
    if (t.ranTick === world.tick) continue;
    const agility = t.player.state.skills.agility.level;
    t.slice.runEnergy = Math.min(MAX_RUN_ENERGY, t.slice.runEnergy + restorePerTick(agility));
    changed(world, t, false);
    if (t.slice.runEnergy === MAX_RUN_ENERGY && t.sentPercent === 100) tracks.delete(t.player.characterId);
  }
}
