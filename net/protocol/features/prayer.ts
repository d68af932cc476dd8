import { z } from 'zod';
import { clientEvent, command, serverEvent } from '../feature.ts';
import { id } from '../shared.ts';

/** Prayer. */

export const prayerClientEvents = {
  'prayer:toggle': clientEvent({
    schema: z.object({ prayerId: id, active: z.boolean() }),
    doc: 'Switch a prayer on or off. Needs its prayer level (`LEVEL_TOO_LOW`) and points left (`REQUIREMENT_NOT_MET`); conflicting prayers switch off. Answered by `prayer:state`.',
    translate: (base, p) =>
      command({ ...base, type: 'prayerToggle', prayerId: p.prayerId, active: p.active }),
  }),
  'prayer:deactivateAll': clientEvent({
    schema: z.object({}),
    doc: 'Switch every prayer off.',
    translate: (base) => command({ ...base, type: 'prayerDeactivateAll' }),
  }),
} as const;

export const prayerServerEvents = {
  'prayer:state': serverEvent({
    schema: z.object({
      points: z.number().int().min(0),
      maxPoints: z.number().int().min(0),
      active: z.array(z.string()),
    }),
    doc: 'The player\u2019s prayer points (`maxPoints` is the prayer level) and active prayers: on entering the world and after every change (toggle, drain, altar, death).',
    from: 'prayerState',
  }),
} as const;
