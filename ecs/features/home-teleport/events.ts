/** The home teleport's events (added to core/events.ts's SimEventData). */

/** Why a cast stopped before it landed. */
export const TELEPORT_INTERRUPTIONS = ['moved', 'hit', 'action', 'left'] as const;
export type TeleportInterruption = (typeof TELEPORT_INTERRUPTIONS)[number];

declare module '../../core/events.ts' {
  interface SimEventData {
    teleportStart: { ticks: number };
    teleportDone: { x: number; z: number };
    teleportInterrupted: { reason: TeleportInterruption };
  }
}

declare module '../../core/character-state.ts' {
  interface CharacterSlices {
    /** When the next home teleport may start (epoch ms); absent = now. */
    homeTeleport: { readyAtMs: number };
  }
}
