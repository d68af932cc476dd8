import { defineFeature } from '../../core/feature.ts';
import { stationsContent } from './content.ts';
import { STATIONS } from './state.ts';
import { expireStations, hashStations, placeContentStations } from './stations.ts';

/**
 * Stations (bank booths, furnaces, anvils, ranges, altars, fires) as entities players see and target.
 * What a station offers belongs to the feature that uses it (the bank, processing, prayer).
 */
export const stations = defineFeature({
  name: 'stations',
  state: STATIONS,
  populate: placeContentStations,
  systems: [{ name: 'expireStations', phase: 'items', run: expireStations }],
  hash: hashStations,
  content: stationsContent,
});
