import type { WorldArea } from '../../ecs/core/content.ts';
import { areaAt, voiceRoomName } from '../../ecs/features/voice/index.ts';
import type { AccountCharacters } from '../auth/characters.ts';
import { authOf } from '../auth/http-input.ts';
import { HttpError, type RouteDef } from '../http/types.ts';
import type { LiveWorld } from './world.ts';

/**
 * GET /api/voice/token (Bearer): a voice access token for the caller's character in the world, for the
 * room of the world area it stands in. The token is a LiveKit access token made by LiveKit's own SDK:
 * HS256 with the API secret, `iss` the API key, `sub` the character id, `name` the character name, a
 * `video` grant to join, publish and subscribe in that one room, valid for 6 hours. Without the three
 * voice settings the route answers 503 VOICE_DISABLED.
 */

/** Lifetime of a voice token; a client fetches a new one whenever its room changes. */
export const VOICE_TOKEN_TTL_SECONDS = 6 * 60 * 60;

export interface VoiceSettings {
  readonly enabled: boolean;
  readonly apiKey: string | undefined;
  readonly apiSecret: string | undefined;
  readonly url: string | undefined;
  readonly worldName: string;
}

export interface VoiceRouteDeps {
  voice: VoiceSettings;
  characters: Pick<AccountCharacters, 'list' | 'require'>;
  live: Pick<LiveWorld, 'liveCharacter'>;
  areas: readonly WorldArea[];
}

export function voiceRoutes(deps: VoiceRouteDeps): RouteDef[] {
  const { voice, characters, live, areas } = deps;
  return [
    {
      method: 'GET',
      path: '/api/voice/token',
      auth: 'bearer',
      handler: async (req) => {
        const { apiKey, apiSecret, url } = voice;
        if (!voice.enabled || apiKey === undefined || apiSecret === undefined || url === undefined) {
          throw new HttpError(503, 'VOICE_DISABLED', 'Voice chat is not configured on this server');
        }
        const auth = authOf(req);
        const asked = req.query.get('characterId');
        let characterId: string | undefined;
        if (asked !== null && asked !== '') {
          characterId = (await characters.require(auth, asked)).id;
        } else {
          characterId = (await characters.list(auth.accountId)).find(
            (c) => live.liveCharacter(c.id) !== null,
          )?.id;
        }
        const state = characterId === undefined ? null : live.liveCharacter(characterId);
        if (characterId === undefined || state === null) {
          throw new HttpError(409, 'CONFLICT', 'Voice needs a character in the world: log in first');
        }
        const room = voiceRoomName(voice.worldName, areaAt(areas, state.position.x, state.position.z));
        // Loaded on the first token: the SDK is a fifth of a second of start-up a server without voice never needs.
        const { AccessToken } = await import('livekit-server-sdk');
        const at = new AccessToken(apiKey, apiSecret, {
          identity: characterId,
          name: state.name,
          ttl: VOICE_TOKEN_TTL_SECONDS,
        });
        at.addGrant({ roomJoin: true, room, canPublish: true, canSubscribe: true });
        return { body: { url, token: await at.toJwt(), room, identity: characterId } };
      },
    },
  ];
}
