import type { Skill } from '../../core/skills.ts';

/** Why gathering stopped. */
export const GATHERING_STOP_REASONS = ['depleted', 'inventory_full', 'moved', 'interrupted'] as const;
export type GatheringStopReason = (typeof GATHERING_STOP_REASONS)[number];

/** The gathering events (added to core/events.ts's SimEventData). */
declare module '../../core/events.ts' {
  interface SimEventData {
    gatheringStart: { resourceId: string; skill: Skill };
    gatheringStop: { reason: GatheringStopReason };
  }
}
