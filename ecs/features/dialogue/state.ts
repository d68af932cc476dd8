import { defineState } from '../../core/feature.ts';

/** How far (Chebyshev tiles) from the NPC a conversation stays open. */
export const DIALOGUE_RANGE = 2;

export interface OpenDialogue {
  npcId: string;
  /** The NPC entity's wire id. */
  entityId: string;
  nodeId: string;
}

export interface DialogueState {
  /** Open conversation by character id. */
  readonly open: Map<string, OpenDialogue>;
}

export const DIALOGUE = defineState<DialogueState>('dialogue', () => ({ open: new Map() }));
