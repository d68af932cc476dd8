/** What other features and adapters may use of combat. */
export { applyDamage, swing, targetIdOf } from './combat.ts';
export { combat } from './feature.ts';
export { COMBAT_STYLES, type CombatStyle } from './formulas.ts';
export { killNpc } from './npc-death.ts';
