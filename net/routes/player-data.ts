import { EQUIP_SLOTS } from '../../ecs/core/character-state.ts';
import type { PersistencePort } from '../../persistence/port.ts';
import type { AccountCharacters } from '../auth/characters.ts';
import { authOf, param } from '../auth/http-input.ts';
import { type HttpRequest, notFound, type RouteDef } from '../http/types.ts';
import { wireEquipSlot } from '../protocol/shared.ts';
import type { LiveWorld } from './world.ts';

/**
 * /api/player/:characterId/{inventory,equipment,bank}: a character's holdings. Bearer; own characters
 * only. Live state while the character is in the world, the stored state otherwise.
 * /api/player/:characterId/friends: its friends (with presence), ignore list and pending requests.
 */

export interface PlayerDataRouteDeps {
  characters: AccountCharacters;
  port: Pick<PersistencePort, 'loadCharacter' | 'loadSocialLists'>;
  live: LiveWorld;
  /** The world a character is in now, in any world of the game (friends' `online`, `world`); absent: all offline. */
  onlineWorld?: (characterId: string) => number | undefined;
}

export function playerDataRoutes({ characters, port, live, onlineWorld }: PlayerDataRouteDeps): RouteDef[] {
  const load = async (req: HttpRequest) => {
    const characterId = param(req, 'characterId');
    await characters.require(authOf(req), characterId);
    const online = live.liveCharacter(characterId);
    if (online !== null) return { s: online, online: true, characterId };
    const stored = await port.loadCharacter(characterId);
    if (stored === null) throw notFound(`No character "${characterId}"`);
    return { s: stored, online: false, characterId };
  };
  const copy = (x: { itemId: string; quantity: number } | null | undefined) =>
    x == null ? null : { itemId: x.itemId, quantity: x.quantity };

  return [
    {
      method: 'GET',
      path: '/api/player/:characterId/inventory',
      auth: 'bearer',
      handler: async (req) => {
        const { s, online, characterId } = await load(req);
        return { body: { characterId, online, coins: s.coins, inventory: s.inventory.map(copy) } };
      },
    },
    {
      method: 'GET',
      path: '/api/player/:characterId/equipment',
      auth: 'bearer',
      handler: async (req) => {
        const { s, online, characterId } = await load(req);
        const equipment = Object.fromEntries(
          EQUIP_SLOTS.map((slot) => [wireEquipSlot(slot), copy(s.equipment[slot])]),
        );
        return { body: { characterId, online, equipment } };
      },
    },
    {
      method: 'GET',
      path: '/api/player/:characterId/bank',
      auth: 'bearer',
      handler: async (req) => {
        const { s, online, characterId } = await load(req);
        return { body: { characterId, online, bank: s.bank.map(copy) } };
      },
    },
    {
      method: 'GET',
      path: '/api/player/:characterId/friends',
      auth: 'bearer',
      handler: async (req) => {
        const characterId = param(req, 'characterId');
        await characters.require(authOf(req), characterId);
        const lists = (await port.loadSocialLists([characterId])).get(characterId);
        if (lists === undefined) throw notFound(`No character "${characterId}"`);
        return {
          body: {
            characterId,
            friends: lists.friends.map((f) => {
              const world = onlineWorld?.(f.id);
              return world === undefined
                ? { id: f.id, name: f.name, online: false }
                : { id: f.id, name: f.name, online: true, world };
            }),
            ignored: lists.ignored.map((i) => ({ id: i.id, name: i.name })),
            requests: lists.requests.map((r) => ({
              requestId: r.requestId,
              fromId: r.fromId,
              fromName: r.fromName,
            })),
          },
        };
      },
    },
  ];
}
