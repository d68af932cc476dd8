/** What other features and adapters may use of NPCs. */
export { npcs } from './feature.ts';
export { spawnNpc } from './populate.ts';
export { NPCS, type NpcData } from './state.ts';
