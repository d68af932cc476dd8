/**
 * The classic accuracy, max-hit and xp formulas, as pure functions of numbers (docs/combat.md gives each
 * with where its numbers come from). Nothing here reads the world.
 */

/** How a blow was dealt (combat:hit and world:update `hits` `style`). */
export const HIT_STYLES = ['melee', 'ranged', 'magic'] as const;

export const COMBAT_STYLES = [
  'accurate',
  'aggressive',
  'defensive',
  'controlled',
  'rapid',
  'longrange',
] as const;
export type CombatStyle = (typeof COMBAT_STYLES)[number];

/** Invisible level bonus of each style: +3 to the trained level, +1 to each for controlled. */
export function styleBonus(style: CombatStyle): { attack: number; strength: number; defense: number } {
  switch (style) {
    case 'accurate':
      return { attack: 3, strength: 0, defense: 0 };
    case 'aggressive':
      return { attack: 0, strength: 3, defense: 0 };
    case 'defensive':
    case 'longrange':
      return { attack: 0, strength: 0, defense: 3 };
    case 'controlled':
      return { attack: 1, strength: 1, defense: 1 };
    default:
      return { attack: 0, strength: 0, defense: 0 };
  }
}

/** Effective level: floor(level × prayer multiplier) + style bonus + 8. */
export function effectiveLevel(level: number, prayerMultiplier: number, style: number): number {
  return Math.floor(level * prayerMultiplier) + style + 8;
}

/** An NPC's effective level: its level + 9 (the +8 every fighter gets and an invisible +1). */
export function npcEffectiveLevel(level: number): number {
  return level + 9;
}

/** Attack or defence roll: effective level × (equipment bonus + 64). */
export function combatRoll(effective: number, bonus: number): number {
  return effective * (bonus + 64);
}

/** Chance that an attack roll beats a defence roll. */
export function hitChance(attackRoll: number, defenceRoll: number): number {
  if (attackRoll > defenceRoll) return 1 - (defenceRoll + 2) / (2 * (attackRoll + 1));
  return attackRoll / (2 * (defenceRoll + 1));
}

/** Maximum hit: floor(0.5 + effective strength × (strength bonus + 64) / 640). */
export function maxHit(effectiveStrength: number, strengthBonus: number): number {
  return Math.floor(0.5 + (effectiveStrength * (strengthBonus + 64)) / 640);
}

export interface MeleeBonuses {
  attack: number;
  strength: number;
  defense: number;
  prayer: number;
}

/**
 * Sums of worn items' `bonuses` as the melee formulas read them: attack = `attack` + the best of
 * `attackStab`/`attackSlash`/`attackCrush`; strength = `strength` + `meleeStrength`; defence = `defense`
 * + the mean (rounded down) of `defenseStab`/`defenseSlash`/`defenseCrush`.
 */
export function meleeBonuses(worn: readonly Readonly<Record<string, number>>[]): MeleeBonuses {
  const t: Record<string, number> = {};
  for (const b of worn) for (const [k, v] of Object.entries(b)) t[k] = (t[k] ?? 0) + v;
  const g = (k: string) => t[k] ?? 0;
  return {
    attack: g('attack') + Math.max(0, g('attackStab'), g('attackSlash'), g('attackCrush')),
    strength: g('strength') + g('meleeStrength'),
    defense: g('defense') + Math.floor((g('defenseStab') + g('defenseSlash') + g('defenseCrush')) / 3),
    prayer: g('prayer'),
  };
}

export type CombatSkill = 'attack' | 'strength' | 'defense' | 'ranged' | 'magic' | 'constitution';

/**
 * Xp for `damage` dealt in a style: 4 per point to the style's skill (controlled: 4/3 to each of attack,
 * strength and defence; rapid: 4 to ranged; longrange: 2 to ranged and 2 to defence; magic: 4 to magic),
 * plus 4/3 per point to constitution.
 * Rounded to whole points (xp is stored as integers).
 */
export function xpForDamage(style: CombatStyle | 'magic', damage: number): [CombatSkill, number][] {
  if (damage <= 0) return [];
  const third = Math.round((4 * damage) / 3);
  const main: [CombatSkill, number][] =
    style === 'magic'
      ? [['magic', 4 * damage]]
      : style === 'accurate'
        ? [['attack', 4 * damage]]
        : style === 'aggressive'
          ? [['strength', 4 * damage]]
          : style === 'defensive'
            ? [['defense', 4 * damage]]
            : style === 'controlled'
              ? [
                  ['attack', third],
                  ['strength', third],
                  ['defense', third],
                ]
              : style === 'rapid'
                ? [['ranged', 4 * damage]]
                : [
                    ['ranged', 2 * damage],
                    ['defense', 2 * damage],
                  ];
  return [...main, ['constitution', third]];
}
