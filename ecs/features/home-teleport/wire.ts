import { z } from 'zod';
import { clientEvent, command, defineWire, serverEvent } from '../../core/faces/wire.ts';

/** The home teleport's wire face: `player:homeTeleport`, and the cast's start, landing and interruption. */

/** Why a cast stopped before it landed. */
export const TELEPORT_INTERRUPTIONS = ['moved', 'hit', 'action', 'left'] as const;

export const teleportStart = z.object({ ticks: z.number().int() });
export const teleportDone = z.object({ x: z.number().int(), z: z.number().int() });
export const teleportInterrupted = z.object({ reason: z.enum(TELEPORT_INTERRUPTIONS) });

export const homeTeleportWire = defineWire({
  client: {
    'player:homeTeleport': clientEvent({
      schema: z.object({}),
      doc: 'Cast the home teleport: after 10 ticks you stand on the starter town spawn. Moving, being hit, attacking or another action interrupts it (`teleport:interrupted`). Refused within 10 ticks of being hit or attacking (`IN_COMBAT`) and during the cooldown after a completed teleport (`COOLDOWN`, seconds left in the message; HOME_TELEPORT_COOLDOWN, default 1800 s, kept across logins).',
      translate: (base) => command({ ...base, type: 'homeTeleport' }),
    }),
  },
  server: {
    'teleport:start': serverEvent({
      schema: teleportStart,
      doc: 'The home teleport cast started; it lands after `ticks` ticks.',
      from: 'teleportStart',
    }),
    'teleport:done': serverEvent({
      schema: teleportDone,
      doc: 'The home teleport landed on this tile; the cooldown starts now.',
      from: 'teleportDone',
    }),
    'teleport:interrupted': serverEvent({
      schema: teleportInterrupted,
      doc: 'The cast stopped before it landed: `moved`, `hit` or `action` (another action started).',
      from: 'teleportInterrupted',
    }),
  },
});
