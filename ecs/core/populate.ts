import type { GameWorld } from './world.ts';

/** Fill a new world with its content (NPCs, resource nodes...): each feature's populate, in plan order. */
export function populateWorld(world: GameWorld): void {
  for (const populate of world.plan.populate) populate(world);
}
