import type { CommandOf } from '../../core/commands.ts';
import { MoveMode } from '../../core/components.ts';
import type { ReachAction } from '../../core/feature.ts';
import { actionStarted, inViewOf, itemLockOf, playerMoving } from '../../core/reactions.ts';
import { emitError, type GameWorld, type PlayerData } from '../../core/world.ts';
import { hasPendingPath, requestPath, surelyUnreachable } from '../movement/index.ts';
import { MAX_REPATHS, PENDING_ACTIONS, type PendingAction } from './state.ts';

/**
 * `player:action`: handed to the feature that registered the verb. Checked here once for every verb, before
 * anything changes: a verb no feature registered is BAD_MESSAGE (the protocol accepts it, this world does
 * not offer it); a verb that changes items answers a lock on them first; a target the player does not see (out of view, a ground item private to another player,
 * or no entity at all) is NOT_FOUND, the same answer whichever it is, so no verb walks anyone toward, or
 * tells anything about, what is out of view. A verb registered with a reach walks the player along a
 * server path to a target out of reach and acts on arrival; a target that leaves view or disappears on
 * the way ends it silently; `player:move` (any move reaction) cancels it.
 */
export function handleAction(world: GameWorld, cmd: CommandOf<'action'>): void {
  const player = world.players.get(cmd.characterId);
  if (!player) return;
  const spec = world.plan.actions.get(cmd.action);
  if (!spec) {
    emitError(
      world,
      player.characterId,
      'BAD_MESSAGE',
      `${cmd.action} is not offered by this world`,
      cmd.origin,
    );
    return;
  }
  const lock = typeof spec !== 'function' && spec.changesItems ? itemLockOf(world, player) : null;
  if (lock) {
    emitError(world, player.characterId, lock.code, lock.message, cmd.origin);
    return;
  }
  const target = world.eidByWireId.get(cmd.targetId);
  if (target === undefined || !inViewOf(world, player, target)) {
    emitError(world, player.characterId, 'NOT_FOUND', 'there is nothing like that in view', cmd.origin);
    return;
  }
  actionStarted(world, player, cmd.action);
  const pending = world.get(PENDING_ACTIONS);
  pending.delete(player.characterId);
  if (typeof spec === 'function') {
    spec(world, player, cmd.targetId, cmd.origin);
    return;
  }
  // Oneself: the verb's own handler answers, with its own error.
  if (target === player.eid || inReach(world, spec, player, target)) {
    spec.run(world, player, cmd.targetId, cmd.origin);
    return;
  }
  const p = world.c.Position;
  const walk: PendingAction = {
    verb: cmd.action,
    targetId: cmd.targetId,
    origin: cmd.origin,
    goalX: 0,
    goalZ: 0,
    targetX: p.x[target] as number,
    targetZ: p.z[target] as number,
    paths: 0,
  };
  const goal = tileToWalkTo(world, player, spec, target);
  // No tile in reach that a path could lead to: the verb answers (too far), and nothing else changes.
  if (goal === null) {
    spec.run(world, player, cmd.targetId, cmd.origin);
    return;
  }
  // Walking there is a move like any other: open interfaces close, a cast is interrupted.
  playerMoving(world, player);
  walkTo(world, player, walk, goal);
  pending.set(player.characterId, walk);
}

/** System: act for players who reached their target; follow targets that moved; drop lost causes. */
export function approachSystem(world: GameWorld): void {
  const pending = world.get(PENDING_ACTIONS);
  if (pending.size === 0) return;
  const p = world.c.Position;
  for (const [id, walk] of [...pending]) {
    const player = world.players.get(id);
    const spec = world.plan.actions.get(walk.verb);
    const target = world.eidByWireId.get(walk.targetId);
    // Gone, or out of view: following it further would show where it went.
    if (
      !player ||
      !spec ||
      typeof spec === 'function' ||
      target === undefined ||
      !inViewOf(world, player, target)
    ) {
      pending.delete(id);
      continue;
    }
    if (inReach(world, spec, player, target)) {
      pending.delete(id);
      spec.run(world, player, walk.targetId, walk.origin);
      continue;
    }
    const moved = p.x[target] !== walk.targetX || p.z[target] !== walk.targetZ;
    const stopped = world.c.Movement.mode[player.eid] === MoveMode.idle && !hasPendingPath(world, player.eid);
    if (!moved && !stopped) continue;
    walk.targetX = p.x[target] as number;
    walk.targetZ = p.z[target] as number;
    // Stopped short of an unmoved target: the path failed (already reported) or led nowhere closer.
    const goal =
      (stopped && !moved) || walk.paths >= MAX_REPATHS ? null : tileToWalkTo(world, player, spec, target);
    if (goal === null) pending.delete(id);
    else walkTo(world, player, walk, goal);
  }
}

export function forgetPendingAction(world: GameWorld, player: PlayerData): void {
  world.get(PENDING_ACTIONS).delete(player.characterId);
}

function reachOf(world: GameWorld, spec: ReachAction, player: PlayerData, target: number) {
  return typeof spec.reach === 'function' ? spec.reach(world, player, target) : spec.reach;
}

function inReach(world: GameWorld, spec: ReachAction, player: PlayerData, target: number): boolean {
  const p = world.c.Position;
  const d = Math.max(
    Math.abs((p.x[player.eid] as number) - (p.x[target] as number)),
    Math.abs((p.z[player.eid] as number) - (p.z[target] as number)),
  );
  return d <= reachOf(world, spec, player, target);
}

/**
 * The tile within reach of the target nearest the player that a path may lead to (walkable, in the
 * player's region; ties: the first in row order, so it is deterministic); null when there is none.
 */
function tileToWalkTo(
  world: GameWorld,
  player: PlayerData,
  spec: ReachAction,
  target: number,
): [number, number] | null {
  const p = world.c.Position;
  const tx = p.x[target] as number;
  const tz = p.z[target] as number;
  const px = p.x[player.eid] as number;
  const pz = p.z[player.eid] as number;
  const reach = Math.max(0, Math.floor(reachOf(world, spec, player, target)));
  let best: [number, number] | null = null;
  let bestD = Number.POSITIVE_INFINITY;
  for (let z = tz - reach; z <= tz + reach; z++) {
    for (let x = tx - reach; x <= tx + reach; x++) {
      const d = Math.max(Math.abs(x - px), Math.abs(z - pz));
      if (d >= bestD || surelyUnreachable(world, player.eid, x, z)) continue;
      bestD = d;
      best = [x, z];
    }
  }
  return best;
}

/** Ask for a path to the chosen tile (each one counts against MAX_REPATHS). */
function walkTo(world: GameWorld, player: PlayerData, walk: PendingAction, goal: [number, number]): void {
  walk.goalX = goal[0];
  walk.goalZ = goal[1];
  walk.paths += 1;
  requestPath(world, player.eid, goal[0], goal[1], false, player.characterId, walk.origin);
}
