import { EntityType } from '../../core/components.ts';
import type { GameWorld, PlayerData } from '../../core/world.ts';
import { NPCS } from '../npcs/index.ts';
import { prayerMultipliers } from '../prayer/index.ts';
import type { SpellInfo } from './content.ts';
import type { HitStyle } from './events.ts';
import {
  type CombatStyle,
  combatRoll,
  effectiveLevel,
  maxHit,
  meleeBonuses,
  npcEffectiveLevel,
  styleBonus,
} from './formulas.ts';
import { COMBAT, DEFAULT_ATTACK_SPEED } from './state.ts';

/**
 * How an entity attacks now: its kind (melee, ranged, magic), spell, style, reach, speed and the numbers
 * it brings to a swing; and where players may fight each other. Reads state only, changes nothing.
 */

export const dist = (world: GameWorld, a: number, b: number): number => {
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
export function alive(world: GameWorld, eid: number, wireId: string): boolean {
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
export function attackSpeed(world: GameWorld, eid: number): number {
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
export function styleFor(world: GameWorld, player: PlayerData, kind: HitStyle): CombatStyle {
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

export function pvpAllowed(world: GameWorld, a: number, b: number): boolean {
  const p = world.c.Position;
  return (
    pvpAllowedAt(world, p.x[a] as number, p.z[a] as number) &&
    pvpAllowedAt(world, p.x[b] as number, p.z[b] as number)
  );
}
