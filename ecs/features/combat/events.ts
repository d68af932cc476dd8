/** Combat's events (added to core/events.ts's SimEventData) and its persisted per-character state. */

/** How a blow was dealt (combat:hit `style`). */
export const HIT_STYLES = ['melee', 'ranged', 'magic'] as const;
export type HitStyle = (typeof HIT_STYLES)[number];

declare module '../../core/events.ts' {
  interface SimEventData {
    combatHit: {
      attackerId: string;
      targetId: string;
      damage: number;
      targetHealth: number;
      tick: number;
      style: HitStyle;
    };
    entityDeath: { id: string; killerId: string | null; tick: number };
  }
}

declare module '../../core/character-state.ts' {
  interface CharacterSlices {
    /** NPCs this character killed, by manifest id. */
    npcKills: Record<string, number>;
  }
}
