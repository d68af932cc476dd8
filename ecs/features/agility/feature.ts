import { defineFeature } from '../../core/feature.ts';
import { combat } from '../combat/index.ts';
import { movement } from '../movement/index.ts';
import { stations } from '../stations/index.ts';
import { agilityContent } from './content.ts';
import {
  agilitySystem,
  handleCross,
  hashAgility,
  placeObstacles,
  refuseWhileCrossing,
  stopCrossing,
} from './crossing.ts';
import { AGILITY } from './state.ts';
import { agilityWire } from './wire.ts';

/** Agility: obstacles and shortcuts crossed with `player:action cross`, for agility xp. */
export const agility = defineFeature({
  name: 'agility',
  state: AGILITY,
  actions: { cross: { reach: 1, run: handleCross } },
  systems: [{ name: 'agility', phase: 'skills', run: agilitySystem }],
  populate: placeObstacles,
  on: { refuse: refuseWhileCrossing, move: stopCrossing, death: stopCrossing, leave: stopCrossing },
  hash: hashAgility,
  uses: [movement, stations, combat],
  wire: agilityWire,
  content: agilityContent,
});
