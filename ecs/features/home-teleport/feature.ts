import { defineFeature } from '../../core/feature.ts';
import type { Hasher } from '../../core/hasher.ts';
import type { GameWorld } from '../../core/world.ts';
import { movement } from '../movement/index.ts';
import { HOME_TELEPORT } from './state.ts';
import {
  handleHomeTeleport,
  homeTeleportSystem,
  onAction,
  onAttacked,
  onHit,
  onLeave,
  onMove,
} from './teleport.ts';
import { homeTeleportWire } from './wire.ts';

/** `player:homeTeleport`: cast, interruption, in-combat refusal, a cooldown kept across logins. */
export const homeTeleport = defineFeature({
  name: 'homeTeleport',
  state: HOME_TELEPORT,
  commands: { homeTeleport: handleHomeTeleport },
  systems: [{ name: 'homeTeleport', phase: 'interactions', run: homeTeleportSystem }],
  on: { move: onMove, actionStarted: onAction, hit: onHit, attacked: onAttacked, leave: onLeave },
  hash: hashCasts,
  uses: [movement],
  wire: homeTeleportWire,
});

function hashCasts(world: GameWorld, h: Hasher): void {
  for (const [id, tick] of world.get(HOME_TELEPORT).casting) {
    h.str(id);
    h.int(tick);
  }
}
