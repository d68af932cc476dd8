import { z } from 'zod';
import { serverEvent } from '../feature.ts';

/** Voice chat: the room follows the world area the player stands in (tokens: GET /api/voice/token). */

export const voiceServerEvents = {
  'voice:room': serverEvent({
    schema: z.object({ room: z.string() }),
    doc: 'You walked (or were moved) into another world area, so your voice room is now `room` (`<world>-<areaId>`, or `<world>-outside` between areas): fetch a new token from `GET /api/voice/token` and join it. Sent only while voice chat is configured (`player:sync.voice.enabled`).',
    from: 'voiceRoom',
  }),
} as const;
