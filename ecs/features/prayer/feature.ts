import { defineFeature } from '../../core/feature.ts';
import type { Hasher } from '../../core/hasher.ts';
import type { GameWorld } from '../../core/world.ts';
import { stations } from '../stations/index.ts';
import { prayerContent } from './content.ts';
import {
  buryBones,
  handleDeactivateAll,
  handlePray,
  handleToggle,
  onDeath,
  onLeave,
  prayerSystem,
  sendState,
} from './prayer.ts';
import { PRAYERS } from './state.ts';
import { prayerWire } from './wire.ts';

/** Prayer: points, toggling, drain, altar recharge, burying bones; bonuses read by combat. */
export const prayer = defineFeature({
  name: 'prayer',
  state: PRAYERS,
  commands: { prayerToggle: handleToggle, prayerDeactivateAll: handleDeactivateAll },
  actions: { pray: { reach: 1, run: handlePray } },
  systems: [{ name: 'prayer', phase: 'skills', run: prayerSystem }],
  on: {
    itemUse: buryBones,
    leave: onLeave,
    death: onDeath,
    // maxPoints is the prayer level.
    levelChanged: (world, player, skill) => {
      if (skill === 'prayer') sendState(world, player);
    },
  },
  hash: hashPrayer,
  uses: [stations],
  wire: prayerWire,
  content: prayerContent,
});

function hashPrayer(world: GameWorld, h: Hasher): void {
  for (const [id, d] of world.get(PRAYERS)) {
    h.str(id);
    h.json(d);
  }
}
