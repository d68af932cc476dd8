import type { z } from 'zod';
import type { HIT_STYLES } from './formulas.ts';
import type { combatHit, entityDeath } from './wire.ts';

/** Combat's events (added to core/events.ts's SimEventData, typed by their wire schemas) and its persisted per-character state. */

export type HitStyle = (typeof HIT_STYLES)[number];

declare module '../../core/events.ts' {
  interface SimEventData {
    combatHit: z.output<typeof combatHit>;
    entityDeath: z.output<typeof entityDeath>;
  }
}

declare module '../../core/character-state.ts' {
  interface CharacterSlices {
    /** NPCs this character killed, by manifest id. */
    npcKills: Record<string, number>;
  }
}
