import { defineFeature } from '../../core/feature.ts';
import type { Hasher } from '../../core/hasher.ts';
import type { GameWorld } from '../../core/world.ts';
import { PRAYERS } from './state.ts';

/** Prayer: points, toggling, drain, altar recharge, burying bones; bonuses read by combat. */
export const prayer = defineFeature({
  name: 'prayer',
  state: PRAYERS,
  hash: hashPrayer,
});

function hashPrayer(world: GameWorld, h: Hasher): void {
  for (const [id, d] of world.get(PRAYERS)) {
    h.str(id);
    h.json(d);
  }
}
