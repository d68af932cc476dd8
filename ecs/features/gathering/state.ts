import { defineState } from '../../core/feature.ts';

/** A player gathering from a node. */
export interface Gatherer {
  /** The node's entity and its manifest id. */
  resourceEid: number;
  nodeId: string;
  /** Tick of the next roll. */
  nextTick: number;
}

export interface GatheringState {
  /** Gathering players by character id. */
  readonly gatherers: Map<string, Gatherer>;
  /** Depleted nodes (eids) waiting to respawn. */
  readonly depleted: Set<number>;
}

export const GATHERING = defineState<GatheringState>('gathering', () => ({
  gatherers: new Map(),
  depleted: new Set(),
}));

/** Reach of the `gather` verb (Chebyshev tiles). */
export const GATHER_REACH = 1;
