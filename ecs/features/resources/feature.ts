import { defineFeature } from '../../core/feature.ts';
import type { Hasher } from '../../core/hasher.ts';
import { type GameWorld, spawnEntity } from '../../core/world.ts';
import { RESOURCES } from './state.ts';

/** Resource nodes placed from content (`resourceSpawns`). Gathering from them is a feature of its own. */
export const resources = defineFeature({
  name: 'resources',
  state: RESOURCES,
  populate: placeResources,
  hash: hashResources,
});

function placeResources(world: GameWorld): void {
  const state = world.get(RESOURCES);
  for (const r of world.content.resourceSpawns) {
    const eid = spawnEntity(world, 'resource', `res-${++state.placed}`, r.x, r.z);
    state.byEid.set(eid, { eid, resourceId: r.resourceId, kind: r.kind, depletedUntilTick: 0 });
  }
}

function hashResources(world: GameWorld, h: Hasher): void {
  for (const r of world.get(RESOURCES).byEid.values()) {
    h.int(r.eid);
    h.str(r.resourceId);
    h.int(r.depletedUntilTick);
  }
}
