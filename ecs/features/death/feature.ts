import { defineFeature } from '../../core/feature.ts';
import { groundItems } from '../ground-items/index.ts';
import { inventory } from '../inventory/index.ts';
import { movement } from '../movement/index.ts';
import { deathSystem, handleDamage, releaseDeathLockOnDespawn } from './death.ts';

/** Damage, death at 0 health: tradeable items drop under a death lock, the player respawns. */
export const death = defineFeature({
  name: 'death',
  commands: { damage: handleDamage },
  // Damage from outside the simulated combat (a hazard, a test) is no intent of the player's.
  deliveries: ['damage'],
  systems: [{ name: 'death', phase: 'death', run: deathSystem }],
  on: { groundItemExpired: releaseDeathLockOnDespawn },
  uses: [movement, inventory, groundItems],
});
