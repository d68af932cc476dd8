import { z } from 'zod';
import { COMBAT_STYLES } from '../../../ecs/features/combat/index.ts';
import { clientEvent, command, serverEvent } from '../feature.ts';

/** Fighting: styles, auto-retaliate, hits and deaths. */

export const combatClientEvents = {
  'combat:style': clientEvent({
    schema: z.object({ style: z.enum(COMBAT_STYLES) }),
    doc: 'Set the attack style: `accurate` (+3 attack, xp to attack), `aggressive` (+3 strength, xp to strength), `defensive` (+3 defense, xp to defense), `controlled` (+1 each, xp split), `rapid`, `longrange` (ranged styles). Default `accurate`.',
    translate: (base, p) => command({ ...base, type: 'combatStyle', style: p.style }),
  }),
  'combat:autoRetaliate': clientEvent({
    schema: z.object({ enabled: z.boolean() }),
    doc: 'Whether the player hits back on its own when attacked while standing idle (default on).',
    translate: (base, p) => command({ ...base, type: 'combatAutoRetaliate', enabled: p.enabled }),
  }),
} as const;

export const combatServerEvents = {
  'combat:hit': serverEvent({
    schema: z.object({
      attackerId: z.string(),
      targetId: z.string(),
      damage: z.number().int(),
      targetHealth: z.number(),
      tick: z.number().int(),
      style: z.enum(['melee', 'ranged', 'magic']),
    }),
    doc: 'A swing landed or missed (`damage: 0`), sent to every player who sees the target; `targetHealth` is what is left.',
    from: 'combatHit',
  }),
  'entity:death': serverEvent({
    schema: z.object({ id: z.string(), killerId: z.string().nullable(), tick: z.number().int() }),
    doc: 'An NPC or a player died (sent to everyone who sees it); `killerId` is the last entity that hit it. A dead NPC is then `removed` from `world:update` and comes back at its spawn later.',
    from: 'entityDeath',
  }),
} as const;
