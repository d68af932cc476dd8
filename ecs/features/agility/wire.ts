import { z } from 'zod';
import { defineWire, serverEvent } from '../../core/faces/wire.ts';

/** Agility's wire face: the `cross` verb, and a crossing's start and end. */

export const agilityStart = z.object({
  obstacleId: z.string(),
  name: z.string(),
  ticks: z.number().int().positive(),
  /** The tile the crossing lands on when it succeeds. */
  x: z.number().int(),
  z: z.number().int(),
});

export const agilityEnd = z.object({
  obstacleId: z.string(),
  success: z.boolean(),
  /** Health lost in a fall (0 on success). */
  damage: z.number().int().min(0),
});

export const agilityWire = defineWire({
  server: {
    'agility:start': serverEvent({
      schema: agilityStart,
      doc: 'A crossing started: it takes `ticks` ticks and lands on `x`, `z`. Until it ends, `player:move`, `player:action` and `player:homeTeleport` are refused with `BUSY`.',
      from: 'agilityStart',
    }),
    'agility:end': serverEvent({
      schema: agilityEnd,
      doc: 'The crossing ended: on success the player stands on the far side and `skill:xp` (agility) follows; a fall (`success` false) leaves the player where it started, `damage` health lighter and without xp.',
      from: 'agilityEnd',
    }),
  },
  verbs: {
    cross:
      'an agility obstacle (reach 1; a `station` of type `obstacle`): needs its agility level (`LEVEL_TOO_LOW`), takes its ticks, may fail; answered by `agility:start` and `agility:end`',
  },
});
