import type { PersistencePort } from '../../persistence/port.ts';
import type { AccountCharacters } from '../auth/characters.ts';
import { authOf, param } from '../auth/http-input.ts';
import { notFound, type RouteDef } from '../http/types.ts';
import type { LiveWorld } from './world.ts';

/**
 * GET /api/characters/:characterId/skills (`{skills:{<skill>:{level,xp}}}`, all 17) and
 * GET /api/characters/:characterId/position (`{position:{x,y,z}, online}`). Bearer; own characters
 * only (403 another account's, 404 unknown). A character in the world answers with its live state.
 */

export interface CharacterRouteDeps {
  characters: AccountCharacters;
  port: Pick<PersistencePort, 'loadCharacter'>;
  live: LiveWorld;
}

export function characterRoutes({ characters, port, live }: CharacterRouteDeps): RouteDef[] {
  const state = async (req: Parameters<RouteDef['handler']>[0]) => {
    const characterId = param(req, 'characterId');
    await characters.require(authOf(req), characterId);
    const online = live.liveCharacter(characterId);
    if (online !== null) return { state: online, online: true };
    const stored = await port.loadCharacter(characterId);
    if (stored === null) throw notFound(`No character "${characterId}"`);
    return { state: stored, online: false };
  };

  return [
    {
      method: 'GET',
      path: '/api/characters/:characterId/skills',
      auth: 'bearer',
      handler: async (req) => {
        const { state: s } = await state(req);
        const skills = Object.fromEntries(
          Object.entries(s.skills).map(([name, v]) => [name, { level: v.level, xp: v.xp }]),
        );
        return { body: { skills } };
      },
    },
    {
      method: 'GET',
      path: '/api/characters/:characterId/position',
      auth: 'bearer',
      handler: async (req) => {
        const { state: s, online } = await state(req);
        return { body: { position: { x: s.position.x, y: s.position.y, z: s.position.z }, online } };
      },
    },
  ];
}
