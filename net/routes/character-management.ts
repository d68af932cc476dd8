import { z } from 'zod';
import type { PersistencePort } from '../../persistence/port.ts';
import { type AccountCharacters, characterView } from '../auth/characters.ts';
import { authOf, param, parseBody } from '../auth/http-input.ts';
import { HttpError, notFound, type RouteDef } from '../http/types.ts';
import type { LiveWorld } from './world.ts';

/**
 * /api/character/*: the account's characters. list, create {name, templateId?}, delete (refused while
 * the character is in the world), select (makes it the most recently played, so the next login and
 * GET /api/v1/player use it). Bearer; own characters only.
 */

const createBody = z.object({ name: z.string().max(64), templateId: z.string().min(1).max(128).optional() });

export interface CharacterManagementDeps {
  characters: AccountCharacters;
  port: Pick<PersistencePort, 'deleteCharacter' | 'touchLogin' | 'listCharacters'>;
  live: LiveWorld;
}

export function characterManagementRoutes({ characters, port, live }: CharacterManagementDeps): RouteDef[] {
  const online = (id: string) => live.liveCharacter(id) !== null;
  return [
    {
      method: 'GET',
      path: '/api/character/list',
      auth: 'bearer',
      handler: async (req) => {
        const list = await characters.list(authOf(req).accountId);
        return { body: { characters: list.map((c) => characterView(c, online(c.id))) } };
      },
    },
    {
      method: 'POST',
      path: '/api/character/create',
      auth: 'bearer',
      handler: async (req) => {
        const auth = authOf(req);
        const body = parseBody(createBody, req.body);
        const created = await characters.create(auth.accountId, {
          name: body.name,
          ...(body.templateId !== undefined ? { templateId: body.templateId } : {}),
        });
        const summary = (await port.listCharacters(auth.accountId)).find((c) => c.id === created.id);
        if (summary === undefined) throw notFound('The new character vanished');
        return { status: 201, body: { character: characterView(summary, false) } };
      },
    },
    {
      method: 'DELETE',
      path: '/api/character/:characterId',
      auth: 'bearer',
      handler: async (req) => {
        const auth = authOf(req);
        const character = await characters.require(auth, param(req, 'characterId'));
        if (online(character.id)) {
          throw new HttpError(409, 'CONFLICT', 'A character cannot be deleted while it is in the world');
        }
        if (!(await port.deleteCharacter(auth.accountId, character.id))) {
          throw notFound(`No character "${character.id}"`);
        }
        return { body: { deleted: true, characterId: character.id } };
      },
    },
    {
      method: 'POST',
      path: '/api/character/:characterId/select',
      auth: 'bearer',
      handler: async (req) => {
        const auth = authOf(req);
        const character = await characters.require(auth, param(req, 'characterId'));
        await port.touchLogin(character.id);
        const fresh = (await port.listCharacters(auth.accountId)).find((c) => c.id === character.id);
        return { body: { character: characterView(fresh ?? character, online(character.id)) } };
      },
    },
  ];
}
