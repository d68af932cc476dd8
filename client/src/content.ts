import { AREAS, BURNT, ITEMS, NPCS, RESOURCES, STATIONS } from 'virtual:content';
import { prettyId, type ViewEntity } from './game.ts';
import type { ItemWords } from './narrator.ts';

/** Names and examine texts of the world's content (cut down at build time), with fallbacks for unknown ids. */

export const itemName = (id: string): string => ITEMS[id]?.name ?? prettyId(id);
export const npcName = (id: string): string => NPCS[id]?.name ?? prettyId(id);

export const ITEM_WORDS: ItemWords = {
  name: itemName,
  burnt: (id) => BURNT.includes(id),
  food: (id) => (ITEMS[id]?.heal ?? 0) > 0,
  bones: (id) => ITEMS[id]?.bury === true,
};

/** What the content says an entity is (its examine text), never just its name again. */
export function examineText(e: ViewEntity): string {
  switch (e.type) {
    case 'npc': {
      const n = NPCS[e.npcId ?? ''];
      const text = n?.examine || `${e.name ?? 'Someone'}.`;
      return n?.kind === 'mob' ? `${text} (level ${e.level ?? n.level})` : text;
    }
    case 'item':
      return ITEMS[e.itemId ?? '']?.examine || `${itemName(e.itemId ?? 'item')}.`;
    case 'station':
      return (
        STATIONS[e.stationType ?? '']?.examine ||
        (e.stationType === 'fire' ? 'A fire: cook raw food on it.' : 'Something to work at.')
      );
    case 'resource': {
      const r = RESOURCES[e.resourceId ?? ''];
      if (!r) return 'Something to gather from.';
      const verb = r.skill === 'fishing' ? 'Fish here' : r.skill === 'mining' ? 'Mine it' : 'Chop it';
      const tool = r.tool ? ` with a ${r.tool.replace(/_/g, ' ')}` : '';
      return `${r.name}: ${verb}${tool} (${prettyId(r.skill)} level ${r.level}).${e.depleted ? ' Nothing left for now.' : ''}`;
    }
    case 'player':
      return `${e.name ?? 'A player'}, combat level ${e.level ?? '?'}.`;
    default:
      return '';
  }
}

export function itemExamine(itemId: string): string {
  return ITEMS[itemId]?.examine || `${itemName(itemId)}.`;
}

/** Where the content places an NPC (its area spawn), for hints toward NPCs out of view. */
export function npcHome(npcId: string): { x: number; z: number } | undefined {
  for (const a of AREAS) {
    const n = a.npcs.find((v) => v.npcId === npcId);
    if (n) return { x: n.x, z: n.z };
  }
  return undefined;
}

/** Whether players may fight each other on a tile (the server's rule, on the world's areas). */
export function pvpAllowedAt(x: number, z: number): boolean {
  let allowed = false;
  for (const a of AREAS) {
    if (x < a.minX || x > a.maxX || z < a.minZ || z > a.maxZ) continue;
    if (a.pvpEnabled) return true;
    if (a.safeZone) return false;
    allowed = true;
  }
  return allowed;
}

/** What an NPC is, for its look: its content kind, or a guess from its verbs for unknown NPCs. */
export function npcKind(e: ViewEntity): string {
  return NPCS[e.npcId ?? '']?.kind ?? (e.level && e.level > 0 ? 'mob' : 'townsfolk');
}

/** A skill's level by name (`defence` is `defense`); 1 for a skill the player does not have. */
export function levelOf(skills: object | undefined, skill: string): number {
  const all = (skills ?? {}) as Record<string, { level: number } | undefined>;
  return all[skill]?.level ?? all[skill === 'defence' ? 'defense' : skill]?.level ?? 1;
}
