/** What other features and adapters may use of stations. */
export { stations } from './feature.ts';
export { STATIONS, type StationData } from './state.ts';
export { placeStation, removeStation, stationByWireId, stationOf } from './stations.ts';
