import type { CommandOf } from '../../core/commands.ts';
import { stateChanged } from '../../core/players.ts';
import { playerMoving } from '../../core/reactions.ts';
import { emit, emitError, type GameWorld, markPosition, type PlayerData } from '../../core/world.ts';
import { dropPath } from '../movement/index.ts';
import type { TeleportInterruption } from './events.ts';
import { CAST_TICKS, COMBAT_WINDOW_TICKS, DEFAULT_COOLDOWN_SECONDS, HOME_TELEPORT } from './state.ts';

/**
 * `player:homeTeleport`: a 10-tick cast, then the player stands on the starter town's spawn. Moving,
 * being hit, attacking or starting another action interrupts it; it cannot start within 10 ticks of
 * being hit or attacking (the `hit` and `attacked` reactions); after a
 * completed teleport the next one waits out a cooldown that is saved with the character (persistence
 * slice `homeTeleport`), so logging out and in does not reset it.
 */

export function handleHomeTeleport(world: GameWorld, cmd: CommandOf<'homeTeleport'>): void {
  const player = world.players.get(cmd.characterId);
  if (!player) return;
  const state = world.get(HOME_TELEPORT);
  if (state.casting.has(player.characterId)) {
    emitError(world, player.characterId, 'BUSY', 'you are already casting the home teleport', cmd.origin);
    return;
  }
  const hit = state.lastHit.get(player.characterId);
  if (hit !== undefined && world.tick - hit < COMBAT_WINDOW_TICKS) {
    emitError(world, player.characterId, 'IN_COMBAT', 'you cannot teleport during combat', cmd.origin);
    return;
  }
  const readyAt = player.state.slices?.homeTeleport?.readyAtMs ?? 0;
  if (world.nowMs < readyAt) {
    const seconds = Math.ceil((readyAt - world.nowMs) / 1000);
    emitError(world, player.characterId, 'COOLDOWN', `home teleport ready in ${seconds} seconds`, cmd.origin);
    return;
  }
  // The cast is an action of its own: whatever the player was doing (a walk, a trade screen) stops.
  playerMoving(world, player);
  dropPath(world, player.eid);
  state.casting.set(player.characterId, world.tick + CAST_TICKS);
  emit(world, player.characterId, 'teleportStart', { ticks: CAST_TICKS });
}

/** System: casts that reached their tick land the player on the spawn and start the cooldown. */
export function homeTeleportSystem(world: GameWorld): void {
  const state = world.get(HOME_TELEPORT);
  if (state.casting.size === 0) return;
  for (const [id, doneTick] of state.casting) {
    if (world.tick < doneTick) continue;
    state.casting.delete(id);
    const player = world.players.get(id);
    if (player) land(world, player);
  }
}

function land(world: GameWorld, player: PlayerData): void {
  const { x, z } = world.content.spawn;
  dropPath(world, player.eid);
  markPosition(world, player.eid, x, z);
  player.state.position = { x, y: 0, z };
  const seconds = world.options.rules?.homeTeleportCooldownSeconds ?? DEFAULT_COOLDOWN_SECONDS;
  player.state.slices = { ...player.state.slices, homeTeleport: { readyAtMs: world.nowMs + seconds * 1000 } };
  stateChanged(world, player);
  emit(world, player.characterId, 'teleportDone', { x, z });
}

function interrupt(world: GameWorld, player: PlayerData, reason: TeleportInterruption): void {
  if (!world.get(HOME_TELEPORT).casting.delete(player.characterId)) return;
  if (reason !== 'left') emit(world, player.characterId, 'teleportInterrupted', { reason });
}

export const onMove = (world: GameWorld, player: PlayerData) => interrupt(world, player, 'moved');
export const onAction = (world: GameWorld, player: PlayerData) => interrupt(world, player, 'action');

export function onHit(world: GameWorld, player: PlayerData): void {
  world.get(HOME_TELEPORT).lastHit.set(player.characterId, world.tick);
  interrupt(world, player, 'hit');
}

/** Attacking counts as combat like being hit (a swing of auto-retaliate during a cast stops it too). */
export function onAttacked(world: GameWorld, player: PlayerData): void {
  world.get(HOME_TELEPORT).lastHit.set(player.characterId, world.tick);
  interrupt(world, player, 'action');
}

export function onLeave(world: GameWorld, player: PlayerData): void {
  interrupt(world, player, 'left');
  world.get(HOME_TELEPORT).lastHit.delete(player.characterId);
}
