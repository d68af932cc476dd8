import { defineState } from '../../core/feature.ts';

export interface ResourceData {
  eid: number;
  resourceId: string;
  kind: string;
  depletedUntilTick: number;
}

/** Resource nodes (trees, rocks, fishing spots) by eid; wire ids `res-<n>`. */
export interface ResourceState {
  readonly byEid: Map<number, ResourceData>;
  placed: number;
}

export const RESOURCES = defineState<ResourceState>('resources', () => ({ byEid: new Map(), placed: 0 }));
