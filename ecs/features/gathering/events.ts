import type { Skill } from '../../core/skills.ts';

/** Why gathering stopped. */
export type GatheringStopReason = 'depleted' | 'inventory_full' | 'moved' | 'interrupted';

/** The gathering events (added to core/events.ts's SimEventData). */
declare module '../../core/events.ts' {
  interface SimEventData {
    gatheringStart: { resourceId: string; skill: Skill };
    gatheringStop: { reason: GatheringStopReason };
  }
}
