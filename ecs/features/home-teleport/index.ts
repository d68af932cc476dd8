/** What other features may use of the home teleport. */
export { homeTeleport } from './feature.ts';
export { CAST_TICKS, DEFAULT_COOLDOWN_SECONDS } from './state.ts';
