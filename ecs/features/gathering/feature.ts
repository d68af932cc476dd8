import { defineFeature } from '../../core/feature.ts';
import { inventory } from '../inventory/index.ts';
import { resources } from '../resources/index.ts';
import { gatheringContent } from './content.ts';
import {
  gatherAction,
  gatheringSystem,
  hashGathering,
  onInterrupt,
  onLeave,
  onMove,
  registerMovingNodes,
} from './gather.ts';
import { GATHER_REACH, GATHERING } from './state.ts';
import { gatheringWire } from './wire.ts';

/** Woodcutting, mining and fishing at resource nodes: `player:action gather`. */
export const gathering = defineFeature({
  name: 'gathering',
  state: GATHERING,
  actions: { gather: { reach: GATHER_REACH, run: gatherAction } },
  systems: [{ name: 'gathering', phase: 'skills', run: gatheringSystem }],
  on: { move: onMove, hit: onInterrupt, actionStarted: onInterrupt, death: onLeave, leave: onLeave },
  populate: registerMovingNodes,
  hash: hashGathering,
  uses: [resources, inventory],
  wire: gatheringWire,
  content: gatheringContent,
});
