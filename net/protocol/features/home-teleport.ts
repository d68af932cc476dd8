import { z } from 'zod';
import { TELEPORT_INTERRUPTIONS } from '../../../ecs/features/home-teleport/index.ts';
import { clientEvent, command, serverEvent } from '../feature.ts';

/** The home teleport. */

export const homeTeleportClientEvents = {
  'player:homeTeleport': clientEvent({
    schema: z.object({}),
    doc: 'Cast the home teleport: after 10 ticks you stand on the starter town spawn. Moving, being hit, attacking or another action interrupts it (`teleport:interrupted`). Refused within 10 ticks of being hit or attacking (`IN_COMBAT`) and during the cooldown after a completed teleport (`COOLDOWN`, seconds left in the message; HOME_TELEPORT_COOLDOWN, default 1800 s, kept across logins).',
    translate: (base) => command({ ...base, type: 'homeTeleport' }),
  }),
} as const;

export const homeTeleportServerEvents = {
  'teleport:start': serverEvent({
    schema: z.object({ ticks: z.number().int() }),
    doc: 'The home teleport cast started; it lands after `ticks` ticks.',
    from: 'teleportStart',
  }),
  'teleport:done': serverEvent({
    schema: z.object({ x: z.number().int(), z: z.number().int() }),
    doc: 'The home teleport landed on this tile; the cooldown starts now.',
    from: 'teleportDone',
  }),
  'teleport:interrupted': serverEvent({
    schema: z.object({ reason: z.enum(TELEPORT_INTERRUPTIONS) }),
    doc: 'The cast stopped before it landed: `moved`, `hit` or `action` (another action started).',
    from: 'teleportInterrupted',
  }),
} as const;
