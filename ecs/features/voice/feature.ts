import { defineFeature } from '../../core/feature.ts';
import type { Hasher } from '../../core/hasher.ts';
import type { GameWorld } from '../../core/world.ts';
import { VOICE } from './state.ts';
import { onLeave, voiceAreaSystem } from './voice.ts';
import { voiceWire } from './wire.ts';

/** Voice chat rooms by world area: `voice:room` when a player changes area (the tokens are net/'s). */
export const voice = defineFeature({
  name: 'voice',
  state: VOICE,
  systems: [{ name: 'voiceArea', phase: 'death', run: voiceAreaSystem }],
  on: { leave: onLeave },
  hash: hashAreas,
  wire: voiceWire,
});

function hashAreas(world: GameWorld, h: Hasher): void {
  for (const [id, area] of world.get(VOICE).areaOf) {
    h.str(id);
    h.str(area);
  }
}
