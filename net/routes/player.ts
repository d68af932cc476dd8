import { z } from 'zod';
import type { PersistencePort } from '../../persistence/port.ts';
import { type AccountCharacters, characterView } from '../auth/characters.ts';
import { authOf, parseBody } from '../auth/http-input.ts';
import { type AuthContext, HttpError, notFound, type RouteDef } from '../http/types.ts';
import type { LiveWorld } from './world.ts';

/**
 * GET /api/v1/player (the account and its current character: the most recently played) and
 * POST /api/v1/player {name} (creates the first character, or renames the current one). Bearer.
 */

const playerBody = z.object({ name: z.string().max(64) });

export interface PlayerRouteDeps {
  characters: AccountCharacters;
  port: Pick<PersistencePort, 'getUser'>;
  live: LiveWorld;
}

export function playerRoutes({ characters, port, live }: PlayerRouteDeps): RouteDef[] {
  const view = async (auth: AuthContext) => {
    const current = await characters.mostRecent(auth.accountId);
    if (current === null) return null;
    const user = await port.getUser(auth.accountId);
    const state = live.liveCharacter(current.id);
    return {
      account: { id: auth.accountId, anonymous: auth.anonymous, name: user?.name ?? null },
      character: {
        ...characterView(current, state !== null),
        position: state === null ? null : { ...state.position },
      },
    };
  };

  return [
    {
      method: 'GET',
      path: '/api/v1/player',
      auth: 'bearer',
      handler: async (req) => {
        const body = await view(authOf(req));
        if (body === null) throw notFound('This account has no character yet: POST /api/v1/player {name}');
        return { body };
      },
    },
    {
      method: 'POST',
      path: '/api/v1/player',
      auth: 'bearer',
      handler: async (req) => {
        const auth = authOf(req);
        const { name } = parseBody(playerBody, req.body);
        const current = await characters.mostRecent(auth.accountId);
        let status = 200;
        if (current === null) {
          await characters.create(auth.accountId, { name });
          status = 201;
        } else if (current.name !== name) {
          if (live.liveCharacter(current.id) !== null) {
            throw new HttpError(409, 'CONFLICT', 'A character cannot be renamed while it is in the world');
          }
          await characters.rename(current.id, name);
        }
        return { status, body: await view(auth) };
      },
    },
  ];
}
