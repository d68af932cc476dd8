/** Combat's events (added to core/events.ts's SimEventData) and its persisted per-character state. */

export type HitStyle = 'melee' | 'ranged' | 'magic';

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
