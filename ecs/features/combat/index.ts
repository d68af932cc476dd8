/** What other features and adapters may use of combat. */

export { combat } from './feature.ts';
export { targetIdOf } from './fights.ts';
export { COMBAT_STYLES, type CombatStyle } from './formulas.ts';
export { applyDamage, swing } from './hits.ts';
export { killNpc } from './npc-death.ts';
export { type Shown, type ShownDeath, type ShownHit, shownOf } from './shown.ts';
export { shownDeath, shownHit } from './wire.ts';
