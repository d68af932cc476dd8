import type { CommandOf } from '../../core/commands.ts';
import { EntityType, MoveMode } from '../../core/components.ts';
import { inViewOf } from '../../core/reactions.ts';
import type { GameWorld, PlayerData } from '../../core/world.ts';
import { emit, emitError } from '../../core/world.ts';
import { cancelMovement, hasPendingPath, requestPath } from '../movement/index.ts';
import { NPCS } from '../npcs/index.ts';
import { ARROW_DROP_CHANCE, dropArrow, payForAttack } from './ammo.ts';
import { alive, attackKind, attackReach, attackSpeed, dist, isPlayer, pvpAllowed } from './attacker.ts';
import { forEachInFight, startFight, stopFight } from './fights.ts';
import { COMBAT_STYLES } from './formulas.ts';
import { swing } from './hits.ts';
import { showDeath } from './shown.ts';
import { COMBAT } from './state.ts';

/**
 * Fighting: `player:action attack` (walked to by the interaction feature, then run here), NPCs that
 * retaliate or aggress (npc-ai.ts), one swing every weapon speed ticks while in reach, following a target
 * out of reach. A fight ends when either side dies, the player moves, or the target leaves (or stands
 * where it may no longer be fought); a player's fight also ends when its target leaves its view.
 */

/** `player:action attack`, once the player is within reach (or the target is not an entity). */
export function handleAttack(world: GameWorld, player: PlayerData, targetId: string, origin?: string): void {
  const target = world.eidByWireId.get(targetId);
  if (target === undefined) {
    emitError(world, player.characterId, 'NOT_FOUND', 'there is nothing to attack there', origin);
    return;
  }
  if (target === player.eid) {
    emitError(world, player.characterId, 'INVALID_TARGET', 'you cannot attack yourself', origin);
    return;
  }
  const kind = world.c.Kind.type[target];
  if (kind === EntityType.npc) {
    const npc = world.get(NPCS).byEid.get(target);
    const info = npc ? world.content.npcs.get(npc.npcId) : undefined;
    if (!info?.attackable || !info.combat) {
      emitError(
        world,
        player.characterId,
        'INVALID_TARGET',
        `${info?.name ?? 'that'} cannot be attacked`,
        origin,
      );
      return;
    }
  } else if (kind === EntityType.player) {
    if (!pvpAllowed(world, player.eid, target)) {
      emitError(world, player.characterId, 'INVALID_TARGET', 'you cannot fight players here', origin);
      return;
    }
  } else {
    emitError(world, player.characterId, 'INVALID_TARGET', 'that cannot be attacked', origin);
    return;
  }
  if ((world.c.Health.current[target] as number) <= 0) return;
  startFight(world, player.eid, target);
  if (dist(world, player.eid, target) <= attackReach(world, player.eid))
    swingIfReady(world, player.eid, target);
}

function swingIfReady(world: GameWorld, attacker: number, target: number, origin?: string): void {
  const st = world.get(COMBAT);
  if ((st.readyAt.get(attacker) ?? 0) > world.tick) return;
  const kind = attackKind(world, attacker);
  const player = world.playerByEid.get(attacker);
  const paid = player ? payForAttack(world, player, kind, origin) : null;
  if (paid === false) {
    stopFight(world, attacker);
    return;
  }
  st.readyAt.set(attacker, world.tick + attackSpeed(world, attacker));
  swing(world, attacker, target, kind);
  if (player && paid !== null && world.rng.chance(ARROW_DROP_CHANCE)) dropArrow(world, player, paid, target);
}

/**
 * System: every fight in the order it started. A lost target ends it; a target in reach is hit when the
 * attacker's weapon is ready; one out of reach is followed (a new path when it moved or the attacker
 * stopped).
 */
export function fightSystem(world: GameWorld): void {
  const st = world.get(COMBAT);
  if (st.fights.size === 0) return;
  const p = world.c.Position;
  for (const [attacker, fight] of [...st.fights]) {
    if (st.fights.get(attacker) !== fight) continue;
    const target = fight.targetEid;
    if (!alive(world, target, fight.targetId) || (world.c.Health.current[attacker] as number) <= 0) {
      stopFight(world, attacker);
      continue;
    }
    if (isPlayer(world, attacker) && isPlayer(world, target) && !pvpAllowed(world, attacker, target)) {
      stopFight(world, attacker);
      continue;
    }
    // A player never chases what it no longer sees: the chase would lead it to wherever the target went.
    const chaser = world.playerByEid.get(attacker);
    if (chaser !== undefined && !inViewOf(world, chaser, target)) {
      stopFight(world, attacker);
      continue;
    }
    const reach = attackReach(world, attacker);
    if (dist(world, attacker, target) <= reach) {
      if (world.c.Movement.mode[attacker] !== MoveMode.idle || hasPendingPath(world, attacker))
        cancelMovement(world, attacker);
      swingIfReady(world, attacker, target);
      continue;
    }
    const tx = p.x[target] as number;
    const tz = p.z[target] as number;
    const idle = world.c.Movement.mode[attacker] === MoveMode.idle && !hasPendingPath(world, attacker);
    if (tx === fight.chaseX && tz === fight.chaseZ && !idle) continue;
    fight.chaseX = tx;
    fight.chaseZ = tz;
    const goal = tileInReach(world, attacker, target, reach);
    if (goal) requestPath(world, attacker, goal[0], goal[1], false, null);
    else stopFight(world, attacker);
  }
}

/** The walkable tile within reach of the target nearest the attacker (ties: first in row order). */
function tileInReach(
  world: GameWorld,
  attacker: number,
  target: number,
  reach: number,
): [number, number] | null {
  const p = world.c.Position;
  const map = world.content.map;
  const tx = p.x[target] as number;
  const tz = p.z[target] as number;
  const ax = p.x[attacker] as number;
  const az = p.z[attacker] as number;
  let best: [number, number] | null = null;
  let bestD = Number.POSITIVE_INFINITY;
  for (let z = tz - reach; z <= tz + reach; z++) {
    for (let x = tx - reach; x <= tx + reach; x++) {
      if ((x === tx && z === tz) || !map.isWalkable(x, z)) continue;
      const d = Math.max(Math.abs(x - ax), Math.abs(z - az));
      if (d < bestD) {
        bestD = d;
        best = [x, z];
      }
    }
  }
  return best;
}

export function handleStyle(world: GameWorld, cmd: CommandOf<'combatStyle'>): void {
  if (!COMBAT_STYLES.includes(cmd.style)) {
    emitError(world, cmd.characterId, 'BAD_MESSAGE', 'unknown combat style', cmd.origin);
    return;
  }
  world.get(COMBAT).styles.set(cmd.characterId, cmd.style);
}

export function handleSpell(world: GameWorld, cmd: CommandOf<'combatSpell'>): void {
  const player = world.players.get(cmd.characterId);
  if (!player) return;
  const spells = world.get(COMBAT).spells;
  if (cmd.spellId === null) {
    spells.delete(player.characterId);
    return;
  }
  const spell = world.content.spells?.get(cmd.spellId);
  if (!spell) {
    emitError(world, player.characterId, 'NOT_FOUND', `no spell ${cmd.spellId}`, cmd.origin);
    return;
  }
  if (player.state.skills.magic.level < spell.level) {
    emitError(world, player.characterId, 'LEVEL_TOO_LOW', `Magic level ${spell.level} required`, cmd.origin);
    return;
  }
  spells.set(player.characterId, spell.id);
}

export function handleAutoRetaliate(world: GameWorld, cmd: CommandOf<'combatAutoRetaliate'>): void {
  const set = world.get(COMBAT).noRetaliate;
  if (cmd.enabled) set.delete(cmd.characterId);
  else set.add(cmd.characterId);
}

/** `move` reaction: a player who moves stops fighting. */
export function onMove(world: GameWorld, player: PlayerData): void {
  stopFight(world, player.eid);
}

/** `leave` reaction: the player's fight and what combat remembers of it go. */
export function onLeave(world: GameWorld, player: PlayerData): void {
  const st = world.get(COMBAT);
  stopFight(world, player.eid);
  st.readyAt.delete(player.eid);
  st.lastHitBy.delete(player.eid);
  st.styles.delete(player.characterId);
  st.noRetaliate.delete(player.characterId);
  st.spells.delete(player.characterId);
}

/** `death` reaction: a dying player stops fighting; its viewers see it die (killed by its last hitter). */
export function onPlayerDeath(world: GameWorld, player: PlayerData): void {
  const st = world.get(COMBAT);
  const data = { id: player.characterId, killerId: st.lastHitBy.get(player.eid) ?? null, tick: world.tick };
  showDeath(world, player.eid, { killerId: data.killerId });
  forEachInFight(world, player.eid, data.killerId, (p) => emit(world, p.characterId, 'entityDeath', data));
  stopFight(world, player.eid);
  for (const [attacker, fight] of [...st.fights])
    if (fight.targetEid === player.eid) stopFight(world, attacker);
  st.lastHitBy.delete(player.eid);
}
