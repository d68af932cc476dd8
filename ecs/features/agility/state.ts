import { defineState } from '../../core/feature.ts';

/** The station type obstacles are placed as (the client offers `cross` on it). */
export const OBSTACLE_STATION = 'obstacle';

/** An obstacle's entity: which obstacle, and whether it is its end (crossed back toward the start). */
export interface ObstacleSide {
  readonly obstacleId: string;
  readonly reverse: boolean;
}

/** A crossing under way: it ends at `doneTick`, on `to` (on success) or where it started (a fall). */
export interface Crossing {
  readonly obstacleId: string;
  readonly doneTick: number;
  readonly to: { readonly x: number; readonly z: number };
}

export interface AgilityState {
  /** Obstacle entities (stations of type `obstacle`) by eid. */
  readonly sides: Map<number, ObstacleSide>;
  /** Crossings under way by character id. */
  readonly crossing: Map<string, Crossing>;
}

export const AGILITY = defineState<AgilityState>('agility', () => ({
  sides: new Map(),
  crossing: new Map(),
}));
