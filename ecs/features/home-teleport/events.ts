import type { z } from 'zod';
import type { TELEPORT_INTERRUPTIONS, teleportDone, teleportInterrupted, teleportStart } from './wire.ts';

/** The home teleport's events (added to core/events.ts's SimEventData), typed by their wire schemas. */

export type TeleportInterruption = (typeof TELEPORT_INTERRUPTIONS)[number];

declare module '../../core/events.ts' {
  interface SimEventData {
    teleportStart: z.output<typeof teleportStart>;
    teleportDone: z.output<typeof teleportDone>;
    teleportInterrupted: z.output<typeof teleportInterrupted>;
  }
}

declare module '../../core/character-state.ts' {
  interface CharacterSlices {
    /** When the next home teleport may start (epoch ms); absent = now. */
    homeTeleport: { readyAtMs: number };
  }
}
