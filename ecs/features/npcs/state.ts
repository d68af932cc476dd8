import { defineState } from '../../core/feature.ts';

export interface NpcData {
  eid: number;
  npcId: string;
  name: string;
  level: number;
  /** Index into content.npcSpawns, for respawning; -1 for an NPC not placed by content (admin spawn). */
  spawnIndex: number;
  service?: 'bank' | 'store' | 'quest' | undefined;
  storeId?: string | undefined;
}

/** The NPCs of a world by eid; wire ids `npc-<n>` count up from 1 per world. */
export interface NpcState {
  readonly byEid: Map<number, NpcData>;
  spawned: number;
}

export const NPCS = defineState<NpcState>('npcs', () => ({ byEid: new Map(), spawned: 0 }));
