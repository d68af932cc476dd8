import type { Command } from '../../core/commands.ts';
import type { Refusal } from '../../core/feature.ts';
import type { Hasher } from '../../core/hasher.ts';
import { grantXp, stateChanged } from '../../core/players.ts';
import { playerMoving } from '../../core/reactions.ts';
import { emit, emitError, type GameWorld, markPosition, type PlayerData } from '../../core/world.ts';
import { applyDamage } from '../combat/index.ts';
import { dropPath } from '../movement/index.ts';
import { placeStation, stationOf } from '../stations/index.ts';
import type { ObstacleInfo } from './content.ts';
import { AGILITY, OBSTACLE_STATION } from './state.ts';

/**
 * Agility: `player:action cross` on an obstacle. The player must have the obstacle's agility level; the
 * crossing then takes the obstacle's ticks, during which the player may not walk, act or teleport (the
 * `refuse` reaction). When it ends the player either lands on the far side with the obstacle's xp, or
 * falls: it stays where it started, loses `failDamage` health and gets no xp. The chance to fall is the
 * obstacle's `failChance` at its own level, one twentieth less of it per level above (none 20 levels up),
 * rolled on the world's seeded generator.
 */

/** Levels above an obstacle's own at which nobody falls any more. */
export const SURE_FOOTED_LEVELS = 20;

/** Commands a player in the middle of a crossing may not give: they would walk it off the obstacle. */
const REFUSED_WHILE_CROSSING: ReadonlySet<Command['type']> = new Set(['move', 'action', 'homeTeleport']);

/** The chance to fall at this agility level. */
export function fallChance(obstacle: ObstacleInfo, level: number): number {
  const above = Math.max(0, level - obstacle.level);
  return obstacle.failChance * Math.max(0, 1 - above / SURE_FOOTED_LEVELS);
}

/** populate: every obstacle stands on its start tile, a two-way one on its end tile too. */
export function placeObstacles(world: GameWorld): void {
  const sides = world.get(AGILITY).sides;
  for (const o of world.content.obstacles?.values() ?? []) {
    sides.set(placeStation(world, OBSTACLE_STATION, o.start.x, o.start.z, 0, o.name), {
      obstacleId: o.id,
      reverse: false,
    });
    if (o.twoWay)
      sides.set(placeStation(world, OBSTACLE_STATION, o.end.x, o.end.z, 0, o.name), {
        obstacleId: o.id,
        reverse: true,
      });
  }
}

/** `player:action cross`, once the player is within reach of the obstacle. */
export function handleCross(world: GameWorld, player: PlayerData, targetId: string, origin?: string): void {
  const eid = world.eidByWireId.get(targetId);
  const side =
    eid === undefined || stationOf(world, eid) === undefined ? undefined : world.get(AGILITY).sides.get(eid);
  const obstacle = side ? world.content.obstacles?.get(side.obstacleId) : undefined;
  if (!side || !obstacle) {
    emitError(world, player.characterId, 'INVALID_TARGET', 'there is nothing to cross there', origin);
    return;
  }
  if (player.state.skills.agility.level < obstacle.level) {
    emitError(
      world,
      player.characterId,
      'LEVEL_TOO_LOW',
      `You need an agility level of ${obstacle.level} to cross the ${obstacle.name}`,
      origin,
    );
    return;
  }
  // The crossing is a move of its own: open interfaces close, a fight or a cast stops.
  playerMoving(world, player);
  dropPath(world, player.eid);
  const to = side.reverse ? obstacle.start : obstacle.end;
  world.get(AGILITY).crossing.set(player.characterId, {
    obstacleId: obstacle.id,
    doneTick: world.tick + obstacle.ticks,
    to,
  });
  emit(world, player.characterId, 'agilityStart', {
    obstacleId: obstacle.id,
    name: obstacle.name,
    ticks: obstacle.ticks,
    x: to.x,
    z: to.z,
  });
}

/** System: crossings that reached their tick land the player, or drop it. */
export function agilitySystem(world: GameWorld): void {
  const crossing = world.get(AGILITY).crossing;
  if (crossing.size === 0) return;
  for (const [id, c] of crossing) {
    if (world.tick < c.doneTick) continue;
    crossing.delete(id);
    const player = world.players.get(id);
    const obstacle = world.content.obstacles?.get(c.obstacleId);
    if (!player || !obstacle) continue;
    const level = player.state.skills.agility.level;
    if (world.rng.next() < fallChance(obstacle, level)) {
      const health = world.c.Health.current[player.eid] as number;
      const damage = Math.min(obstacle.failDamage, health);
      if (damage > 0) applyDamage(world, player.eid, damage, null);
      emit(world, id, 'agilityEnd', { obstacleId: obstacle.id, success: false, damage });
      continue;
    }
    dropPath(world, player.eid);
    markPosition(world, player.eid, c.to.x, c.to.z);
    player.state.position = { x: c.to.x, y: 0, z: c.to.z };
    stateChanged(world, player);
    emit(world, id, 'agilityEnd', { obstacleId: obstacle.id, success: true, damage: 0 });
    grantXp(world, player, 'agility', obstacle.xp);
  }
}

/** `refuse` reaction: no walking, acting or teleporting off an obstacle half-way. */
export function refuseWhileCrossing(world: GameWorld, player: PlayerData, cmd: Command): Refusal | null {
  if (!REFUSED_WHILE_CROSSING.has(cmd.type)) return null;
  const c = world.get(AGILITY).crossing.get(player.characterId);
  if (!c) return null;
  const name = world.content.obstacles?.get(c.obstacleId)?.name ?? 'obstacle';
  return { code: 'BUSY', message: `You are crossing the ${name}` };
}

/** `move`, `death` and `leave` reactions: a player moved by force, dead or gone crosses nothing. */
export function stopCrossing(world: GameWorld, player: PlayerData): void {
  world.get(AGILITY).crossing.delete(player.characterId);
}

export function hashAgility(world: GameWorld, h: Hasher): void {
  for (const [id, c] of world.get(AGILITY).crossing) {
    h.str(id);
    h.str(c.obstacleId);
    h.int(c.doneTick);
  }
}
