import type { z } from 'zod';
import type { prayerState } from './wire.ts';

/** Prayer's events (added to core/events.ts's SimEventData, typed by their wire schemas) and its persisted state. */
declare module '../../core/events.ts' {
  interface SimEventData {
    prayerState: z.output<typeof prayerState>;
  }
}

declare module '../../core/character-state.ts' {
  interface CharacterSlices {
    /** Prayer points left (active prayers are not kept across logins). */
    prayer: { points: number };
  }
}
