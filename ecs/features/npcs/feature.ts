import { defineFeature } from '../../core/feature.ts';
import type { Hasher } from '../../core/hasher.ts';
import type { GameWorld } from '../../core/world.ts';
import { movement } from '../movement/index.ts';
import { placeNpcs } from './populate.ts';
import { NPCS } from './state.ts';
import { wanderSystem } from './wander-system.ts';

/** NPCs placed from content; idle ones wander within their spawn radius. */
export const npcs = defineFeature({
  name: 'npcs',
  state: NPCS,
  systems: [{ name: 'npcs', phase: 'npcs', run: wanderSystem }],
  populate: placeNpcs,
  hash: hashNpcs,
  uses: [movement],
});

function hashNpcs(world: GameWorld, h: Hasher): void {
  const next = world.c.Wander.nextTick;
  for (const n of world.get(NPCS).byEid.values()) {
    h.int(n.eid);
    h.str(n.npcId);
    h.int(next[n.eid] as number);
  }
}
