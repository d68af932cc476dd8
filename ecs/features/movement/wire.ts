import { z } from 'zod';
import { coord } from '../../core/faces/primitives.ts';
import { clientEvent, command, defineWire, serverEvent } from '../../core/faces/wire.ts';

export const runEnergyEvent = z.object({ runEnergy: z.number().int().min(0).max(100) });

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
  server: {
    'player:energy': serverEvent({
      schema: runEnergyEvent,
      doc: "The receiving player's run energy changed by a whole percent (the same `runEnergy` as in player:sync, which is not sent for it). It drains 0.67 % a tick while running (about 90 s from full) and comes back while not running, faster with agility (full in about 12.5 minutes at agility 1, 4 at 99); below one tick's drain a runner walks, and a run asked for then is a walk. While it drains it is sent at most every 5 ticks (at once at 0 and 100).",
      from: 'runEnergy',
    }),
  },
});
