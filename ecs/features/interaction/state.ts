import type { PlayerAction } from '../../core/commands.ts';
import { defineState } from '../../core/feature.ts';

/** An action waiting for its player to walk within reach of the target. */
export interface PendingAction {
  verb: PlayerAction;
  targetId: string;
  origin: string | undefined;
  /** The tile walked to, and the target's tile when it was chosen (a moving target is followed). */
  goalX: number;
  goalZ: number;
  targetX: number;
  targetZ: number;
  /** Paths asked for so far: a target that keeps escaping is given up after MAX_REPATHS. */
  paths: number;
}

export const MAX_REPATHS = 8;

export const PENDING_ACTIONS = defineState('interaction', () => new Map<string, PendingAction>());
