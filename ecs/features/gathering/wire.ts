import { z } from 'zod';
import { defineWire, serverEvent } from '../../core/faces/wire.ts';
import { SKILLS } from '../../core/skills.ts';

/** Gathering's wire face (woodcutting, mining, fishing), started by `player:action gather`. */

/** Why gathering stopped. */
export const GATHERING_STOP_REASONS = ['depleted', 'inventory_full', 'moved', 'interrupted'] as const;

export const gatheringStart = z.object({ resourceId: z.string(), skill: z.enum(SKILLS) });
export const gatheringStop = z.object({ reason: z.enum(GATHERING_STOP_REASONS) });

export const gatheringWire = defineWire({
  server: {
    'gathering:start': serverEvent({
      schema: gatheringStart,
      doc: 'Gathering started at a node (`resourceId`: the node kind, as in `world:update`). Each cycle may give items (`player:sync`) and xp (`skill:xp`).',
      from: 'gatheringStart',
    }),
    'gathering:stop': serverEvent({
      schema: gatheringStop,
      doc: 'Gathering ended: the node `depleted` (or the fishing spot moved away), `inventory_full`, the player `moved`, or was `interrupted` (hit, another action, a tool or bait gone, the node out of reach).',
      from: 'gatheringStop',
    }),
  },
  verbs: {
    gather:
      'at a resource node (reach 1: woodcutting, mining, fishing; `gathering:start` / `gathering:stop`)',
  },
});
