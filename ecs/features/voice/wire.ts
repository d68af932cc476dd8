import { z } from 'zod';
import { defineWire, serverEvent } from '../../core/faces/wire.ts';

/** Voice chat's wire face: the room follows the world area the player stands in (tokens: GET /api/voice/token). */

export const voiceRoom = z.object({ room: z.string() });

export const voiceWire = defineWire({
  server: {
    'voice:room': serverEvent({
      schema: voiceRoom,
      doc: 'You walked (or were moved) into another world area, so your voice room is now `room` (`<world>-<areaId>`, or `<world>-outside` between areas): fetch a new token from `GET /api/voice/token` and join it. Sent only while voice chat is configured (`player:sync.voice.enabled`).',
      from: 'voiceRoom',
    }),
  },
});
