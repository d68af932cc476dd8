import { z } from 'zod';
import { id } from '../../core/faces/primitives.ts';
import { clientEvent, command, defineWire, serverEvent } from '../../core/faces/wire.ts';

/** Prayer's wire face: switching prayers, the points and prayers on, and the `pray` verb. */

export const prayerState = z.object({
  points: z.number().int().min(0),
  maxPoints: z.number().int().min(0),
  active: z.array(z.string()),
});

export const prayerWire = defineWire({
  client: {
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
  },
  server: {
    'prayer:state': serverEvent({
      schema: prayerState,
      doc: 'The player\u2019s prayer points (`maxPoints` is the prayer level) and active prayers: on entering the world and after every change (toggle, drain, altar, death).',
      from: 'prayerState',
    }),
  },
  verbs: { pray: 'at an altar station (reach 1) restores all prayer points' },
});
