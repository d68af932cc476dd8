/** Built by client/content-plugin.ts from the world's manifests at build time. */
declare module 'virtual:content' {
  /** By NPC id: its name, examine text, what it is (`mob`, `banker`, `shopkeeper`, `quest`, `townsfolk`), the `player:action` verbs it answers, its level and the quests it gives. */
  export const NPCS: Record<
    string,
    { name: string; examine: string; kind: string; verbs: string[]; level: number; quests: string[] }
  >;
  export const ITEMS: Record<
    string,
    { name: string; examine: string; heal?: number; equip?: string; bury?: boolean; value: number }
  >;
  /** By station type. */
  export const STATIONS: Record<string, { name: string; examine: string }>;
  /** Trees, rocks and fishing spots by id. */
  export const RESOURCES: Record<string, { name: string; skill: string; level: number; tool: string }>;
  export const QUESTS: Record<
    string,
    {
      name: string;
      startNpc: string;
      quests: string[];
      skills: Record<string, number>;
      stages: { id: string; description: string; npcId?: string }[];
    }
  >;
  export const SPELLS: {
    id: string;
    name: string;
    level: number;
    runes: { itemId: string; quantity: number }[];
  }[];
  /** Every prayer with the prayer level it needs. */
  export const PRAYERS: { id: string; name: string; level: number }[];
  /** Recipes made from the inventory alone (no station): the item made and the items it uses. */
  export const HAND_RECIPES: { recipeId: string; kind: string; level: number; uses: string[] }[];
  /** Burnt foods (cooking gone wrong). */
  export const BURNT: string[];
  /** The world areas with whether they are safe or allow players to fight each other, and their NPCs. */
  export const AREAS: {
    id: string;
    minX: number;
    maxX: number;
    minZ: number;
    maxZ: number;
    safeZone: boolean;
    pvpEnabled: boolean;
    npcs: { npcId: string; x: number; z: number }[];
  }[];
}
