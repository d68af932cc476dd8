import { z } from 'zod';
import { coord } from '../../core/faces/primitives.ts';
import { clientEvent, command, defineWire } from '../../core/faces/wire.ts';

/** Movement's wire face: walking and running (positions reach clients in world:update). */
export const movementWire = defineWire({
  client: {
    'player:move': clientEvent({
      schema: z.union([
        z.object({ cancel: z.literal(true) }),
        z.object({ x: coord, z: coord, run: z.boolean().optional() }),
      ]),
      doc: 'Walk (2 tiles a tick) or run (4) to a tile along a server-computed path. More than 200 tiles away (Chebyshev): `error TOO_FAR`; unreachable: `INVALID_TARGET`. `{cancel:true}` stops. Cancels an open trade (`moved`).',
      translate: (base, p) =>
        'cancel' in p
          ? command({ ...base, type: 'moveCancel' })
          : command({ ...base, type: 'move', x: p.x, z: p.z, run: p.run ?? false }),
    }),
  },
});
