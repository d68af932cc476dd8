/** What other features and adapters may use of combat. */

export { combat } from './feature.ts';
export { targetIdOf } from './fights.ts';
export { COMBAT_STYLES, type CombatStyle, HIT_STYLES } from './formulas.ts';
export { applyDamage, swing } from './hits.ts';
export { killNpc } from './npc-death.ts';
export { shownOf } from './shown.ts';
export type { Shown, ShownDeath, ShownHit } from './state.ts';
