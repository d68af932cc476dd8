import { defineFeature } from '../../core/feature.ts';
import type { Hasher } from '../../core/hasher.ts';
import type { GameWorld } from '../../core/world.ts';
import { movement } from '../movement/index.ts';
import { approachSystem, forgetPendingAction, handleAction } from './approach.ts';
import { PENDING_ACTIONS } from './state.ts';

/** `player:action`: each verb to its feature; targets out of reach are walked to first. */
export const interaction = defineFeature({
  name: 'interaction',
  state: PENDING_ACTIONS,
  commands: { action: handleAction },
  systems: [{ name: 'approach', phase: 'interactions', run: approachSystem }],
  on: { move: forgetPendingAction, leave: forgetPendingAction, death: forgetPendingAction },
  hash: hashPending,
  uses: [movement],
});

function hashPending(world: GameWorld, h: Hasher): void {
  for (const [id, walk] of world.get(PENDING_ACTIONS)) {
    h.str(id);
    h.json(walk);
  }
}
