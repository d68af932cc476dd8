import type { z } from 'zod';
import type { voiceRoom } from './wire.ts';

/** The voice feature's event and rule (added to core/events.ts's SimEventData and core/world.ts's GameRules). */

declare module '../../core/events.ts' {
  interface SimEventData {
    /** The player walked (or was moved) into another world area: its voice room changed. */
    voiceRoom: z.output<typeof voiceRoom>;
  }
}

declare module '../../core/world.ts' {
  interface GameRules {
    /**
     * The world's name when voice chat is configured (rooms are `<voiceWorld>-<areaId>`); absent when it
     * is not, and then no room is tracked.
     */
    voiceWorld: string;
  }
}
