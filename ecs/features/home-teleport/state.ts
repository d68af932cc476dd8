import { defineState } from '../../core/feature.ts';

/** Ticks a cast takes, and the window in which a hit counts as being in combat. */
export const CAST_TICKS = 10;
export const COMBAT_WINDOW_TICKS = 10;
export const DEFAULT_COOLDOWN_SECONDS = 1800;

export interface HomeTeleportState {
  /** Casts in progress: character id -> the tick the cast completes. */
  readonly casting: Map<string, number>;
  /** Last tick each online character was hit (for the in-combat refusal). */
  readonly lastHit: Map<string, number>;
}

export const HOME_TELEPORT = defineState<HomeTeleportState>('homeTeleport', () => ({
  casting: new Map(),
  lastHit: new Map(),
}));
