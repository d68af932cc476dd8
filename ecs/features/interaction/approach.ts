import type { CommandOf } from '../../core/commands.ts';
import { MoveMode } from '../../core/components.ts';
import type { ReachAction } from '../../core/feature.ts';
import { actionStarted, playerMoving } from '../../core/reactions.ts';
import { emitError, type GameWorld, type PlayerData } from '../../core/world.ts';
import { hasPendingPath, requestPath } from '../movement/index.ts';
import { MAX_REPATHS, PENDING_ACTIONS, type PendingAction } from './state.ts';

/**
 * `player:action`: handed to the feature that registered the verb. A verb registered with a reach walks
 * the player along a server path to a target out of reach and acts on arrival; a target that leaves or
 * disappears on the way ends it silently; `player:move` (any move reaction) cancels it. A verb no feature
 * registered is answered BAD_MESSAGE: the protocol accepts it, this world does not offer it.
 */
export function handleAction(world: GameWorld, cmd: CommandOf<'action'>): void {
  const player = world.players.get(cmd.characterId);
  if (!player) return;
  actionStarted(world, player, cmd.action);
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
  const pending = world.get(PENDING_ACTIONS);
  pending.delete(player.characterId);
  if (typeof spec === 'function') {
    spec(world, player, cmd.targetId, cmd.origin);
    return;
  }
  const target = world.eidByWireId.get(cmd.targetId);
  // No such entity (or oneself): the verb's own handler answers, with its own error.
  if (target === undefined || target === player.eid || inReach(world, spec, player, target)) {
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
  // Walking there is a move like any other: open interfaces close, a cast is interrupted.
  playerMoving(world, player);
  if (!walkTowards(world, player, spec, target, walk)) {
    spec.run(world, player, cmd.targetId, cmd.origin);
    return;
  }
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
    if (!player || !spec || typeof spec === 'function' || target === undefined) {
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
    if ((stopped && !moved) || walk.paths >= MAX_REPATHS || !walkTowards(world, player, spec, target, walk))
      pending.delete(id);
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
 * Ask for a path to the walkable tile within reach of the target nearest the player (ties: the first in
 * row order, so it is deterministic). False when no tile within reach is walkable.
 */
function walkTowards(
  world: GameWorld,
  player: PlayerData,
  spec: ReachAction,
  target: number,
  walk: PendingAction,
): boolean {
  const p = world.c.Position;
  const map = world.content.map;
  const tx = p.x[target] as number;
  const tz = p.z[target] as number;
  const px = p.x[player.eid] as number;
  const pz = p.z[player.eid] as number;
  const reach = Math.max(0, Math.floor(reachOf(world, spec, player, target)));
  let best: [number, number] | null = null;
  let bestD = Number.POSITIVE_INFINITY;
  for (let z = tz - reach; z <= tz + reach; z++) {
    for (let x = tx - reach; x <= tx + reach; x++) {
      if (!map.isWalkable(x, z)) continue;
      const d = Math.max(Math.abs(x - px), Math.abs(z - pz));
      if (d < bestD) {
        bestD = d;
        best = [x, z];
      }
    }
  }
  if (best === null) return false;
  walk.goalX = best[0];
  walk.goalZ = best[1];
  walk.paths += 1;
  requestPath(world, player.eid, best[0], best[1], false, player.characterId, walk.origin);
  return true;
}
