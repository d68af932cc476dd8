/** Built by client/vite.config.ts from the default world's manifests (npcs.json, prayers.json, world-areas.json). */
declare module 'virtual:content' {
  /** The `player:action` verbs each NPC (by manifest id) answers: attack, talk, shop, bank. */
  export const NPC_VERBS: Record<string, string[]>;
  /** Every prayer with the prayer level it needs. */
  export const PRAYERS: { id: string; name: string; level: number }[];
  /** The world areas with whether they are safe or allow players to fight each other. */
  export const AREAS: {
    minX: number;
    maxX: number;
    minZ: number;
    maxZ: number;
    safeZone: boolean;
    pvpEnabled: boolean;
  }[];
}
