import { defineFeature } from '../../core/feature.ts';
import { inventory } from '../inventory/index.ts';
import { handleUnequip, wearOnUse } from './equip.ts';

/** Wearing items: `inventory:use` on a wearable item wears it, `equipment:unequip` takes it off. */
export const equipment = defineFeature({
  name: 'equipment',
  commands: { unequip: handleUnequip },
  on: { itemUse: wearOnUse },
  uses: [inventory],
});
