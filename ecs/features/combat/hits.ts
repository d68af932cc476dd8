import { Dirty, MoveMode } from '../../core/components.ts';
import { grantXp, stateChanged } from '../../core/players.ts';
import { playerAttacked, playerHit } from '../../core/reactions.ts';
import type { GameWorld } from '../../core/world.ts';
import { emit, markDirty } from '../../core/world.ts';
import { hasPendingPath } from '../movement/index.ts';
import { NPCS } from '../npcs/index.ts';
import { combatNumbers, isPlayer, styleFor } from './attacker.ts';
import type { HitStyle } from './events.ts';
import { startFight, stopFight } from './fights.ts';
import { type CombatStyle, hitChance, xpForDamage } from './formulas.ts';
import { killNpc } from './npc-death.ts';
import { showHit } from './shown.ts';
import { COMBAT } from './state.ts';

/** A blow landing: damage and who dealt it, the hit its viewers see, xp, a death, the target hitting back. */

/** Apply damage to an entity from an attacker (wire id; may be null for admin kills / hazards). */
export function applyDamage(world: GameWorld, target: number, damage: number, sourceId: string | null): void {
  const h = world.c.Health;
  const now = Math.max(0, (h.current[target] as number) - damage);
  if (sourceId !== null) world.get(COMBAT).lastHitBy.set(target, sourceId);
  if (now !== h.current[target]) {
    h.current[target] = now;
    markDirty(world, target, Dirty.health);
  }
  const victim = world.playerByEid.get(target);
  if (victim) {
    victim.state.health = now;
    stateChanged(world, victim, true);
    playerHit(world, victim, sourceId ?? undefined);
  }
}

/** One attack: roll to hit, roll damage, show it to the viewers, xp, retaliation, death. */
export function swing(world: GameWorld, attacker: number, target: number, kind: HitStyle = 'melee'): void {
  const a = combatNumbers(world, attacker, kind);
  const d = combatNumbers(world, target, kind);
  const chance = hitChance(a.attackRoll, d.defenceRoll);
  const rolled = world.rng.next() < chance ? world.rng.int(0, a.maxHit) : 0;
  const health = world.c.Health.current[target] as number;
  const damage = Math.min(rolled, health);
  const attackerId = world.wireIds[attacker] as string;
  const targetId = world.wireIds[target] as string;
  applyDamage(world, target, damage, attackerId);
  const data = {
    attackerId,
    targetId,
    damage,
    targetHealth: world.c.Health.current[target] as number,
    tick: world.tick,
    style: kind,
  };
  // Everyone who sees the target gets the hit in its world:update entry; the two in the fight also as
  // an event of their own (once when a player hits itself).
  showHit(world, target, { attackerId, damage, style: kind });
  const player = world.playerByEid.get(attacker);
  const victim = world.playerByEid.get(target);
  if (player) emit(world, player.characterId, 'combatHit', data);
  if (victim && victim !== player) emit(world, victim.characterId, 'combatHit', data);
  if (player) {
    playerAttacked(world, player);
    for (const [skill, xp] of xpForDamage(xpStyle(styleFor(world, player, kind), kind), damage))
      grantXp(world, player, skill, xp);
  }
  if ((world.c.Health.current[target] as number) <= 0) {
    stopFight(world, attacker);
    if (!isPlayer(world, target)) killNpc(world, target, player);
    return;
  }
  retaliate(world, target, attacker);
}

/**
 * The style as xp reads it for this kind of attack: ranged xp for ranged shots (longrange shared with
 * defence), magic for casts (the style already mapped by styleFor).
 */
function xpStyle(style: CombatStyle, kind: HitStyle): CombatStyle | 'magic' {
  if (kind === 'magic') return 'magic';
  if (kind === 'ranged') return style === 'longrange' ? 'longrange' : 'rapid';
  return style;
}

/** A target that is not fighting hits back: NPCs that `retaliates`, idle players with auto-retaliate on. */
function retaliate(world: GameWorld, target: number, attacker: number): void {
  const st = world.get(COMBAT);
  if (st.fights.has(target)) return;
  const victim = world.playerByEid.get(target);
  if (victim) {
    if (st.noRetaliate.has(victim.characterId)) return;
    if (world.c.Movement.mode[target] !== MoveMode.idle || hasPendingPath(world, target)) return;
  } else {
    const npc = world.get(NPCS).byEid.get(target);
    const info = npc ? world.content.npcs.get(npc.npcId) : undefined;
    if (!info?.combat?.retaliates || st.npcHomes.get(target)?.returning) return;
  }
  startFight(world, target, attacker);
}
