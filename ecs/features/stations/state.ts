import { defineState } from '../../core/feature.ts';

export interface StationData {
  eid: number;
  /** `bank`, `furnace`, `anvil`, `range`, `altar`, `fire`... as the content names them. */
  stationType: string;
  /** What players see it called (stations.json's name, or the placer's); undefined: unnamed (a fire). */
  name: string | undefined;
  /** Tick at which it goes away (a fire burning out); 0 for the stations placed from content. */
  expiresAtTick: number;
}

/** Stations by eid; wire ids `st-<n>`. */
export interface StationState {
  readonly byEid: Map<number, StationData>;
  placed: number;
}

export const STATIONS = defineState<StationState>('stations', () => ({ byEid: new Map(), placed: 0 }));
