import { z } from 'zod';
import { ERROR_CODES } from './events.ts';
import { defineWire, serverEvent } from './faces/wire.ts';
import { SKILLS } from './skills.ts';

/**
 * The core's wire face (attached to `players`): the events every feature may send. Their data stays
 * typed by hand in events.ts, which is zod-free, and serverEvent checks it against these schemas.
 */
export const coreWire = defineWire({
  server: {
    'skill:xp': serverEvent({
      schema: z.object({
        skill: z.enum(SKILLS),
        xp: z.number(),
        gained: z.number(),
        level: z.number().int(),
      }),
      doc: 'Experience gained in a skill (`xp` is the new total).',
      from: 'skillXp',
    }),
    error: serverEvent({
      schema: z.object({ code: z.enum(ERROR_CODES), message: z.string(), event: z.string().nullable() }),
      doc: 'A refused or malformed message. The connection stays open unless a close code follows.',
      from: 'error',
    }),
  },
});
