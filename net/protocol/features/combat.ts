import { z } from 'zod';
import { COMBAT_STYLES, HIT_STYLES } from '../../../ecs/features/combat/index.ts';
import { clientEvent, command, serverEvent } from '../feature.ts';
import { id } from '../shared.ts';

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
  'combat:spell': clientEvent({
    schema: z.object({ spellId: id.nullable() }),
    doc: 'Set the spell to autocast (an id of combat-spells.json) or `null` for none. While one is set, attacks are casts (reach: a magic weapon range, else 10; speed: the spell): each cast uses its runes from the inventory (`MISSING_ITEMS` and the fight ends without them) and needs its magic level (`LEVEL_TOO_LOW`, also when setting it). Unknown spell: `NOT_FOUND`.',
    translate: (base, p) => command({ ...base, type: 'combatSpell', spellId: p.spellId }),
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
      style: z.enum(HIT_STYLES),
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
