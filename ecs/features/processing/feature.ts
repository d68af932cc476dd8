import { defineFeature } from '../../core/feature.ts';
import { gathering } from '../gathering/index.ts';
import { inventory } from '../inventory/index.ts';
import { movement } from '../movement/index.ts';
import { stations } from '../stations/index.ts';
import { processingContent } from './content.ts';
import {
  handleSkillMake,
  hashProcessing,
  onInterrupt,
  onLeave,
  onMove,
  processingSystem,
  useItem,
  useStation,
} from './make.ts';
import { PROCESSING, STATION_REACH } from './state.ts';
import { processingWire } from './wire.ts';

/**
 * Cooking, firemaking, smelting, smithing, crafting, fletching, tanning and runecrafting: `skill:make`,
 * item-on-item and item-on-station `inventory:use`, and `player:action use` on a station.
 */
export const processing = defineFeature({
  name: 'processing',
  state: PROCESSING,
  commands: { skillMake: handleSkillMake },
  actions: { use: { reach: STATION_REACH, run: useStation } },
  systems: [{ name: 'processing', phase: 'skills', run: processingSystem }],
  on: {
    move: onMove,
    hit: onInterrupt,
    actionStarted: onInterrupt,
    itemUse: useItem,
    death: onLeave,
    leave: onLeave,
  },
  hash: hashProcessing,
  uses: [movement, stations, inventory, gathering],
  wire: processingWire,
  content: processingContent,
});
