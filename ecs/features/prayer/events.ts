/** Prayer's events (added to core/events.ts's SimEventData) and its persisted state. */
declare module '../../core/events.ts' {
  interface SimEventData {
    prayerState: { points: number; maxPoints: number; active: string[] };
  }
}

declare module '../../core/character-state.ts' {
  interface CharacterSlices {
    /** Prayer points left (active prayers are not kept across logins). */
    prayer: { points: number };
  }
}

export {};
