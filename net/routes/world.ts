import type { CharacterState } from '../../ecs/core/character-state.ts';
import type { AreaDef } from '../../world/schemas/areas.ts';
import type { RouteDef } from '../http/types.ts';

/**
 * GET /api/v1/world (a snapshot of the running world) and GET /api/v1/world/areas (every area of the
 * content). Bearer. Live values come from LiveWorld, which the world runtime implements.
 */

/** What HTTP routes may read from the running world: cached values, never a wait for the tick. */
export interface LiveWorld {
  summary(): { tick: number; playersOnline: number; entities: Record<string, number> };
  /** A read-only snapshot of a character in the world, or null when it is not in the world. */
  liveCharacter(characterId: string): Readonly<CharacterState> | null;
}

export interface WorldAreasView {
  readonly areas: ReadonlyMap<string, AreaDef & { readonly group: string }>;
}

export function areaSummary(area: AreaDef & { readonly group: string }) {
  return {
    id: area.id,
    name: area.name,
    description: area.description ?? '',
    group: area.group,
    bounds: { ...area.bounds },
    safeZone: area.safeZone,
    pvpEnabled: area.pvpEnabled,
    difficulty: area.difficultyLevel,
    biome: area.biomeType,
    npcCount: area.npcs.length,
    mobSpawnCount: area.mobSpawns.length,
    resourceCount: area.resources.length,
  };
}

export function worldRoutes(deps: { live: LiveWorld; content: WorldAreasView }): RouteDef[] {
  return [
    {
      method: 'GET',
      path: '/api/v1/world',
      auth: 'bearer',
      handler: () => {
        const s = deps.live.summary();
        return {
          body: {
            tick: s.tick,
            playersOnline: s.playersOnline,
            areas: deps.content.areas.size,
            entities: { ...s.entities },
          },
        };
      },
    },
    {
      method: 'GET',
      path: '/api/v1/world/areas',
      auth: 'bearer',
      handler: () => ({ body: { areas: [...deps.content.areas.values()].map(areaSummary) } }),
    },
  ];
}
