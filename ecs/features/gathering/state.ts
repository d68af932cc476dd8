import { defineState } from '../../core/feature.ts';
import type { ToolInfo } from './content.ts';

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
  /** Nodes that move (fishing spots with `moveTicks`), by eid: where the content put them, next move. */
  readonly moving: Map<number, { homeX: number; homeZ: number; nextTick: number }>;
  /** The tools each node accepts, best first (derived from content once; not world state). */
  readonly accepted: Map<string, readonly ToolInfo[]>;
}

export const GATHERING = defineState<GatheringState>('gathering', () => ({
  gatherers: new Map(),
  depleted: new Set(),
  moving: new Map(),
  accepted: new Map(),
}));

/** Reach of the `gather` verb (Chebyshev tiles). */
export const GATHER_REACH = 1;
