import type { CommandOf } from '../../core/commands.ts';
import { Dirty, EntityType, MoveMode } from '../../core/components.ts';
import type { SpellInfo } from '../../core/content.ts';
import { grantXp, stateChanged } from '../../core/players.ts';
import { inViewOf, playerAttacked, playerHit } from '../../core/reactions.ts';
import type { GameWorld, PlayerData } from '../../core/world.ts';
import { emit, emitError, markDirty } from '../../core/world.ts';
import { cancelMovement, hasPendingPath, requestPath } from '../movement/index.ts';
import { NPCS } from '../npcs/index.ts';
import { prayerMultipliers } from '../prayer/index.ts';
import { ARROW_DROP_CHANCE, dropArrow, payForAttack } from './ammo.ts';
import type { HitStyle } from './events.ts';
import {
  COMBAT_STYLES,
  type CombatStyle,
  combatRoll,
  effectiveLevel,
  hitChance,
  maxHit,
  meleeBonuses,
  npcEffectiveLevel,
  styleBonus,
  xpForDamage,
} from './formulas.ts';
import { killNpc } from './npc-death.ts';
import { COMBAT, DEFAULT_ATTACK_SPEED } from './state.ts';

/**
 * Fighting: `player:action attack` (walked to by the interaction feature, then run here), NPCs that
 * retaliate or aggress (npc-ai.ts), one swing every weapon speed ticks while in reach, following a target
 * out of reach. A fight ends when either side dies, the player moves, or the target leaves (or stands
 * where it may no longer be fought); a player's fight also ends when its target leaves its view.
 */

const dist = (world: GameWorld, a: number, b: number): number => {
  const p = world.c.Position;
  return Math.max(
    Math.abs((p.x[a] as number) - (p.x[b] as number)),
    Math.abs((p.z[a] as number) - (p.z[b] as number)),
  );
};

export function isPlayer(world: GameWorld, eid: number): boolean {
  return world.c.Kind.type[eid] === EntityType.player;
}

/** Alive and still the same entity (eids are reused, wire ids never). */
function alive(world: GameWorld, eid: number, wireId: string): boolean {
  return world.wireIds[eid] === wireId && (world.c.Health.current[eid] as number) > 0;
}

/** A player's weapon as the manifest describes it, if it wields one. */
function weaponOf(world: GameWorld, player: PlayerData) {
  const w = player.state.equipment.weapon;
  return w ? world.content.items.get(w.itemId)?.weapon : undefined;
}

/** How a player attacks now: a spell set to autocast makes it magic, a ranged weapon ranged, else melee. */
export function attackKind(world: GameWorld, eid: number): HitStyle {
  const player = world.playerByEid.get(eid);
  if (!player) {
    const npc = world.get(NPCS).byEid.get(eid);
    return (npc && world.content.npcs.get(npc.npcId)?.combat?.attackType) || 'melee';
  }
  if (spellOf(world, player)) return 'magic';
  return weaponOf(world, player)?.attackType === 'ranged' ? 'ranged' : 'melee';
}

/** The spell a player autocasts, if any. */
export function spellOf(world: GameWorld, player: PlayerData): SpellInfo | undefined {
  const id = world.get(COMBAT).spells.get(player.characterId);
  return id === undefined ? undefined : world.content.spells?.get(id);
}

/** Tiles a magic attack reaches without a magic weapon. */
export const SPELL_RANGE = 10;

/**
 * Reach of an attacker in tiles: 1 for melee, the weapon's `attackRange` for ranged (+2 with longrange,
 * at most 10), a magic weapon's range (else 10) for spells; an NPC's `combatRange`.
 */
export function attackReach(world: GameWorld, eid: number): number {
  const player = world.playerByEid.get(eid);
  if (player) {
    const weapon = weaponOf(world, player);
    const kind = attackKind(world, eid);
    if (kind === 'magic') return weapon?.attackType === 'magic' ? weapon.attackRange : SPELL_RANGE;
    if (kind === 'ranged') {
      const range = weapon?.attackRange ?? 1;
      return styleOf(world, player.characterId) === 'longrange' ? Math.min(10, range + 2) : range;
    }
    return 1;
  }
  const npc = world.get(NPCS).byEid.get(eid);
  return Math.max(1, Math.floor(npc ? (world.content.npcs.get(npc.npcId)?.combat?.combatRange ?? 1) : 1));
}

/** Ticks between attacks: the weapon's `attackSpeed` (one less with rapid), a spell's, an NPC's. */
function attackSpeed(world: GameWorld, eid: number): number {
  const player = world.playerByEid.get(eid);
  if (player) {
    const spell = spellOf(world, player);
    if (spell) return spell.attackSpeed;
    const weapon = weaponOf(world, player);
    const speed = weapon?.attackSpeed ?? DEFAULT_ATTACK_SPEED;
    return weapon?.attackType === 'ranged' && styleOf(world, player.characterId) === 'rapid'
      ? Math.max(1, speed - 1)
      : speed;
  }
  const npc = world.get(NPCS).byEid.get(eid);
  return npc
    ? (world.content.npcs.get(npc.npcId)?.combat?.attackSpeedTicks ?? DEFAULT_ATTACK_SPEED)
    : DEFAULT_ATTACK_SPEED;
}

export function styleOf(world: GameWorld, characterId: string): CombatStyle {
  return world.get(COMBAT).styles.get(characterId) ?? 'accurate';
}

/** The chosen style as the player's current attack uses it: a style of the other family is accurate. */
function styleFor(world: GameWorld, player: PlayerData, kind: HitStyle): CombatStyle {
  const style = styleOf(world, player.characterId);
  const rangedStyle = style === 'rapid' || style === 'longrange';
  if (kind === 'ranged') return rangedStyle ? style : 'accurate';
  if (kind === 'melee') return rangedStyle ? 'accurate' : style;
  return 'accurate';
}

/** The numbers one side brings to a swing of a kind: its attack roll, defence roll and max hit. */
export interface CombatNumbers {
  attackRoll: number;
  defenceRoll: number;
  maxHit: number;
}

function summed(world: GameWorld, player: PlayerData): Record<string, number> {
  const t: Record<string, number> = {};
  for (const st of Object.values(player.state.equipment)) {
    const b = st ? world.content.items.get(st.itemId)?.bonuses : undefined;
    if (b) for (const [k, v] of Object.entries(b)) t[k] = (t[k] ?? 0) + v;
  }
  return t;
}

export function combatNumbers(world: GameWorld, eid: number, kind: HitStyle = 'melee'): CombatNumbers {
  const player = world.playerByEid.get(eid);
  if (player) {
    const s = player.state.skills;
    const worn = Object.values(player.state.equipment).map(
      (st) => (st ? world.content.items.get(st.itemId)?.bonuses : undefined) ?? {},
    );
    const bonus = meleeBonuses(worn);
    const style = styleBonus(styleFor(world, player, attackKind(world, eid)));
    const mult = prayerMultipliers(world, player);
    const t = summed(world, player);
    const g = (k: string) => t[k] ?? 0;
    const defenceRoll = combatRoll(
      effectiveLevel(s.defense.level, mult.defense, style.defense),
      kind === 'melee'
        ? bonus.defense
        : g('defense') + g(kind === 'ranged' ? 'defenseRanged' : 'defenseMagic'),
    );
    if (kind === 'ranged') {
      const eff = effectiveLevel(s.ranged.level, 1, styleFor(world, player, 'ranged') === 'accurate' ? 3 : 0);
      return {
        attackRoll: combatRoll(eff, g('attackRanged') + g('ranged')),
        defenceRoll,
        maxHit: maxHit(eff, g('rangedStrength')),
      };
    }
    if (kind === 'magic') {
      return {
        attackRoll: combatRoll(effectiveLevel(s.magic.level, 1, 0), g('attackMagic') + g('magic')),
        defenceRoll,
        maxHit: spellOf(world, player)?.baseMaxHit ?? 0,
      };
    }
    return {
      attackRoll: combatRoll(effectiveLevel(s.attack.level, mult.attack, style.attack), bonus.attack),
      defenceRoll,
      maxHit: maxHit(effectiveLevel(s.strength.level, mult.strength, style.strength), bonus.strength),
    };
  }
  const npc = world.get(NPCS).byEid.get(eid);
  const info = npc ? world.content.npcs.get(npc.npcId) : undefined;
  const cb = info?.combat;
  const level = info?.level ?? 1;
  const defenceRoll = combatRoll(npcEffectiveLevel(cb?.defense ?? level), cb?.defenseBonus ?? 0);
  // An NPC attacks in its own way (its attackType); it defends with the same numbers against all kinds.
  if (cb?.attackType === 'ranged') {
    const eff = npcEffectiveLevel(cb.ranged ?? level);
    const arrow = cb.arrowId ? (world.content.items.get(cb.arrowId)?.bonuses.rangedStrength ?? 0) : 0;
    return { attackRoll: combatRoll(eff, cb.attackBonus), defenceRoll, maxHit: maxHit(eff, arrow) };
  }
  if (cb?.attackType === 'magic') {
    const spell = cb.spellId ? world.content.spells?.get(cb.spellId) : undefined;
    const eff = npcEffectiveLevel(cb.magic ?? level);
    return {
      attackRoll: combatRoll(eff, cb.attackBonus),
      defenceRoll,
      maxHit: spell?.baseMaxHit ?? maxHit(eff, 0),
    };
  }
  return {
    attackRoll: combatRoll(npcEffectiveLevel(cb?.attack ?? level), cb?.attackBonus ?? 0),
    defenceRoll,
    maxHit: maxHit(npcEffectiveLevel(cb?.strength ?? level), cb?.strengthBonus ?? 0),
  };
}

/** Whether players may fight each other on this tile: inside a `pvpEnabled` area, or an area that is not a safe zone. */
export function pvpAllowedAt(world: GameWorld, x: number, z: number): boolean {
  let allowed = false;
  for (const a of world.content.areas ?? []) {
    if (x < a.minX || x > a.maxX || z < a.minZ || z > a.maxZ) continue;
    if (a.pvpEnabled) return true;
    if (a.safeZone) return false;
    allowed = true;
  }
  return allowed;
}

function pvpAllowed(world: GameWorld, a: number, b: number): boolean {
  const p = world.c.Position;
  return (
    pvpAllowedAt(world, p.x[a] as number, p.z[a] as number) &&
    pvpAllowedAt(world, p.x[b] as number, p.z[b] as number)
  );
}

/** Every player who sees this entity (within view distance of it). */
export function forEachViewer(world: GameWorld, eid: number, visit: (p: PlayerData) => void): void {
  const p = world.c.Position;
  const x = p.x[eid] as number;
  const z = p.z[eid] as number;
  const r = world.viewDistance;
  const kind = world.c.Kind.type;
  world.grid.forEachInSquare(x, z, r, (other) => {
    if (kind[other] !== EntityType.player) return;
    if (Math.max(Math.abs((p.x[other] as number) - x), Math.abs((p.z[other] as number) - z)) > r) return;
    const viewer = world.playerByEid.get(other);
    if (viewer) visit(viewer);
  });
}

export function startFight(world: GameWorld, attacker: number, target: number): void {
  const fights = world.get(COMBAT).fights;
  const had = fights.get(attacker);
  fights.set(attacker, {
    targetEid: target,
    targetId: world.wireIds[target] as string,
    chaseX: Number.NaN,
    chaseZ: Number.NaN,
  });
  if (had?.targetEid !== target) markDirty(world, attacker, Dirty.target);
}

export function stopFight(world: GameWorld, attacker: number): void {
  if (world.get(COMBAT).fights.delete(attacker) && world.wireIds[attacker] !== undefined)
    markDirty(world, attacker, Dirty.target);
}

/** The wire id of the entity this one fights, or null (world:update `targetId`). */
export function targetIdOf(world: GameWorld, eid: number): string | null {
  return world.get(COMBAT).fights.get(eid)?.targetId ?? null;
}

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

/** One attack: roll to hit, roll damage, tell the viewers, xp, retaliation, death. */
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
  forEachViewer(world, target, (viewer) => emit(world, viewer.characterId, 'combatHit', data));
  const player = world.playerByEid.get(attacker);
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
  stopFight(world, player.eid);
  for (const [attacker, fight] of [...st.fights])
    if (fight.targetEid === player.eid) stopFight(world, attacker);
  const data = { id: player.characterId, killerId: st.lastHitBy.get(player.eid) ?? null, tick: world.tick };
  forEachViewer(world, player.eid, (viewer) => emit(world, viewer.characterId, 'entityDeath', data));
  st.lastHitBy.delete(player.eid);
}
