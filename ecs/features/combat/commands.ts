import type { CombatStyle } from './formulas.ts';

/** This feature's commands, added to the simulation's command union (see core/commands.ts). */
declare module '../../core/commands.ts' {
  /** `player:action` verbs this feature answers. */
  interface PlayerActions {
    attack: true;
  }
  interface CommandFields {
    /** `combat:style`: where combat xp goes and which level the style boosts. */
    combatStyle: { style: CombatStyle };
    /** `combat:autoRetaliate`: fight back when attacked while idle. */
    combatAutoRetaliate: { enabled: boolean };
    /** `combat:spell`: the spell to autocast (null: none). */
    combatSpell: { spellId: string | null };
  }
}
