import type { Skill } from '../../core/skills.ts';
import { emit, type GameWorld, type PlayerData } from '../../core/world.ts';
import { type EnergyTable, MOVE } from './state.ts';

/**
 * Run energy: a player may run while it has energy; running drains it, anything else restores it, faster
 * with a higher agility level. Live per eid in movement's EnergyTable while the player is in the world;
 * the character's `movement` slice (what a save stores) follows it to the whole percent, and exactly when
 * the player leaves. Players see the whole percent in `player:energy` when it changes (and in every
 * player:sync). NPCs are not limited.
 */

/** Full energy: 100 %, in hundredths. */
export const MAX_RUN_ENERGY = 10_000;
/** Drained per tick a runner advances (0.67 %: about 150 ticks, 90 s, of running from full). */
export const RUN_DRAIN = 67;
/** While draining, `player:energy` carries a new percent at most this often. */
export const RUN_SYNC_TICKS = 5;

/** Restored per tick while not running: 8 at agility 1 (12.5 minutes from empty), 24 at 99 (about 4). */
export function restorePerTick(agility: number): number {
  return 8 + Math.floor(agility / 6);
}

const percentOf = (value: number): number => Math.floor(value / 100);

/**
 * `player:energy` data, one frozen object per percent: thousands of resting players are each told a
 * percent every few ticks, and delivery encodes a frozen payload once for good instead of per event.
 */
const ENERGY_EVENTS: readonly Readonly<{ runEnergy: number }>[] = Array.from({ length: 101 }, (_, p) =>
  Object.freeze({ runEnergy: p }),
);

/** The player's movement slice, made full when the character has none (a new character). */
function sliceOf(player: PlayerData): { runEnergy: number } {
  let slice = player.state.slices?.movement;
  if (slice === undefined) {
    slice = { runEnergy: MAX_RUN_ENERGY };
    player.state.slices = { ...player.state.slices, movement: slice };
  }
  return slice;
}

/** The player's energy in hundredths of a percent. */
export function runEnergy(world: GameWorld, player: PlayerData): number {
  return world.get(MOVE).energy.value[player.eid] as number;
}

/** What player:sync shows: the whole percent. */
export function runEnergyPercent(world: GameWorld, player: PlayerData): number {
  return percentOf(runEnergy(world, player));
}

/** Whether a run of this entity may start now: NPCs always, players with one tick's drain left. */
export function mayRun(world: GameWorld, eid: number): boolean {
  const table = world.get(MOVE).energy;
  return table.owner[eid] === undefined || (table.value[eid] as number) >= RUN_DRAIN;
}

function track(table: EnergyTable, eid: number): void {
  if (table.slot[eid] !== 0) return;
  table.tracked.push(eid);
  table.slot[eid] = table.tracked.length;
}

function untrack(table: EnergyTable, eid: number): void {
  const at = (table.slot[eid] as number) - 1;
  if (at < 0) return;
  const last = table.tracked.pop() as number;
  if (last !== eid) {
    table.tracked[at] = last;
    table.slot[last] = at + 1;
  }
  table.slot[eid] = 0;
}

/** `join` reaction: energy as saved (clamped), or full; tracked while it is not full. */
export function onJoin(world: GameWorld, player: PlayerData): void {
  const table = world.get(MOVE).energy;
  const slice = sliceOf(player);
  const value = Math.max(0, Math.min(MAX_RUN_ENERGY, Math.round(slice.runEnergy)));
  slice.runEnergy = value;
  const eid = player.eid;
  table.owner[eid] = player;
  table.value[eid] = value;
  table.rate[eid] = restorePerTick(player.state.skills.agility.level);
  table.sentPercent[eid] = percentOf(value);
  table.savedPercent[eid] = percentOf(value);
  table.sentTick[eid] = world.tick;
  table.ranTick[eid] = -1;
  if (value < MAX_RUN_ENERGY) track(table, eid);
}

/** `leave` reaction: the exact energy into the slice the leaving snapshot stores. */
export function onLeave(world: GameWorld, player: PlayerData): void {
  const table = world.get(MOVE).energy;
  const eid = player.eid;
  if (table.owner[eid] !== player) return;
  sliceOf(player).runEnergy = table.value[eid] as number;
  untrack(table, eid);
  table.owner[eid] = undefined;
}

/** `levelChanged` reaction: agility sets how fast energy comes back. */
export function onLevelChanged(world: GameWorld, player: PlayerData, skill: Skill): void {
  if (skill !== 'agility') return;
  const table = world.get(MOVE).energy;
  if (table.owner[player.eid] === player)
    table.rate[player.eid] = restorePerTick(player.state.skills.agility.level);
}

/** Set a player's energy (hundredths of a percent); it is tracked until full again. */
export function setRunEnergy(world: GameWorld, player: PlayerData, value: number): void {
  const table = world.get(MOVE).energy;
  const eid = player.eid;
  if (table.owner[eid] !== player) return;
  table.value[eid] = Math.max(0, Math.min(MAX_RUN_ENERGY, Math.round(value)));
  sliceOf(player).runEnergy = table.value[eid] as number;
  track(table, eid);
  changed(world, table, eid, false);
}

/**
 * After the value changed: a new whole percent goes into the slice (and a save), and to the player as
 * `player:energy`, rate-limited while draining. Not a player:sync: that is the largest message, and
 * thousands of runners would each ask for one every few ticks.
 */
function changed(world: GameWorld, table: EnergyTable, eid: number, draining: boolean): void {
  const value = table.value[eid] as number;
  const percent = percentOf(value);
  if (percent === table.sentPercent[eid] && percent === table.savedPercent[eid]) return;
  const player = table.owner[eid] as PlayerData;
  if (percent !== table.savedPercent[eid]) {
    table.savedPercent[eid] = percent;
    sliceOf(player).runEnergy = value;
    world.persist.dirty.add(player.characterId);
  }
  if (percent === table.sentPercent[eid]) return;
  if (
    draining &&
    percent !== 0 &&
    percent !== 100 &&
    world.tick - (table.sentTick[eid] as number) < RUN_SYNC_TICKS
  )
    return;
  emit(world, player.characterId, 'runEnergy', ENERGY_EVENTS[percent] as { runEnergy: number });
  table.sentPercent[eid] = percent;
  table.sentTick[eid] = world.tick;
}

/**
 * A runner is about to advance: false when it is a player with less than one tick's drain (it walks from
 * now on), else the drain is taken (NPCs are not limited). Takes the table and eid, not the player: it
 * runs for every runner every tick.
 */
export function drainRunner(world: GameWorld, table: EnergyTable, eid: number): boolean {
  if (table.owner[eid] === undefined) return true;
  const value = table.value[eid] as number;
  if (value < RUN_DRAIN) return false;
  table.value[eid] = value - RUN_DRAIN;
  table.ranTick[eid] = world.tick;
  track(table, eid);
  changed(world, table, eid, true);
  return true;
}

/** System (after movement): players who did not run this tick get energy back; full ones are let go. */
export function runEnergySystem(world: GameWorld): void {
  const table = world.get(MOVE).energy;
  const { tracked, value, rate, ranTick, sentPercent, savedPercent } = table;
  const tick = world.tick;
  for (let i = 0; i < tracked.length; ) {
    const eid = tracked[i] as number;
    if (ranTick[eid] === tick) {
      i++;
      continue;
    }
    const v = Math.min(MAX_RUN_ENERGY, (value[eid] as number) + (rate[eid] as number));
    value[eid] = v;
    const percent = percentOf(v);
    if (percent !== sentPercent[eid] || percent !== savedPercent[eid]) changed(world, table, eid, false);
    // Full and told: let go (the last of the list takes this place, and is visited next).
    if (v === MAX_RUN_ENERGY && sentPercent[eid] === 100) untrack(table, eid);
    else i++;
  }
}
