import { defineState } from '../../core/feature.ts';

export interface GroundItemData {
  eid: number;
  itemId: string;
  quantity: number;
  /** Only the owner sees it until `publicAtTick`; null = everyone. */
  ownerId: string | null;
  publicAtTick: number;
  despawnAtTick: number;
  /** Set on items a death dropped: the DeathLockRequest that holds them until picked up or despawned. */
  deathLockId?: string | undefined;
}

/** Ground items by eid; wire ids `item-<n>` count up per world. */
export interface GroundItemState {
  readonly byEid: Map<number, GroundItemData>;
  dropped: number;
}

export const GROUND_ITEMS = defineState<GroundItemState>('groundItems', () => ({
  byEid: new Map(),
  dropped: 0,
}));
