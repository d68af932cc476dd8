import { z } from 'zod';
import { SKILLS } from '../../../ecs/core/skills.ts';
import { GATHERING_STOP_REASONS } from '../../../ecs/features/gathering/index.ts';
import { serverEvent } from '../feature.ts';

/** Gathering (woodcutting, mining, fishing), started by `player:action gather`. */

export const gatheringServerEvents = {
  'gathering:start': serverEvent({
    schema: z.object({ resourceId: z.string(), skill: z.enum(SKILLS) }),
    doc: 'Gathering started at a node (`resourceId`: the node kind, as in `world:update`). Each cycle may give items (`player:sync`) and xp (`skill:xp`).',
    from: 'gatheringStart',
  }),
  'gathering:stop': serverEvent({
    schema: z.object({ reason: z.enum(GATHERING_STOP_REASONS) }),
    doc: 'Gathering ended: the node `depleted` (or the fishing spot moved away), `inventory_full`, the player `moved`, or was `interrupted` (hit, another action, a tool or bait gone, the node out of reach).',
    from: 'gatheringStop',
  }),
} as const;
