import type { z } from 'zod';
import type { runEnergyEvent } from './wire.ts';

declare module '../../core/events.ts' {
  interface SimEventData {
    runEnergy: z.output<typeof runEnergyEvent>;
  }
}

/** Movement's persisted per-character state (stored through its persist face, persist.ts). */
declare module '../../core/character-state.ts' {
  interface CharacterSlices {
    /** Run energy in hundredths of a percent (0..10000); absent: full. */
    movement: { runEnergy: number };
  }
}
