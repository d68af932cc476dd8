import { createWorldFromPlan, type GameWorld, type WorldOptions } from './core/world.ts';
import { PLAN } from './schedule.ts';

/** A world of the game's features (FEATURES in schedule.ts), without content placed yet. */
export function createGameWorld(opts: WorldOptions): GameWorld {
  return createWorldFromPlan({ ...opts, plan: PLAN });
}
