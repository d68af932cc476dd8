/** Movement's persisted per-character state (stored through its persist face, persist.ts). */
declare module '../../core/character-state.ts' {
  interface CharacterSlices {
    /** Run energy in hundredths of a percent (0..10000); absent: full. */
    movement: { runEnergy: number };
  }
}

export {};
