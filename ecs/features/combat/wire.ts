import { z } from 'zod';
import { id } from '../../core/faces/primitives.ts';
import { clientEvent, command, defineWire, serverEvent } from '../../core/faces/wire.ts';
import { COMBAT_STYLES, HIT_STYLES } from './formulas.ts';

/** Combat's wire face: styles, auto-retaliate, spells, hits and deaths, and the `attack` verb. */

export const combatHit = z.object({
  attackerId: z.string(),
  targetId: z.string(),
  damage: z.number().int(),
  targetHealth: z.number(),
  tick: z.number().int(),
  style: z.enum(HIT_STYLES),
});
export const entityDeath = z.object({
  id: z.string(),
  killerId: z.string().nullable(),
  tick: z.number().int(),
});

export const combatWire = defineWire({
  client: {
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
  },
  server: {
    'combat:hit': serverEvent({
      schema: combatHit,
      doc: "A swing landed or missed (`damage: 0`), sent to the two players in it (the attacker and the target, when they are players); `targetHealth` is what is left. Everyone who sees the target (these two included) gets the hit in the target's `world:update` entry instead (`hits`), once, in the same tick.",
      from: 'combatHit',
    }),
    'entity:death': serverEvent({
      schema: entityDeath,
      doc: 'An NPC or a player died, sent to the players in the fight: the one who died, its killer and whoever was attacking it; `killerId` is the last entity that hit it. Everyone who sees it gets the death in its `world:update` entry instead (`death`), in the same tick. A dead NPC is `removed` in that same `world:update` (after its last entry) and comes back at its spawn later.',
      from: 'entityDeath',
    }),
  },
  verbs: {
    attack:
      'an attackable NPC, or a player where the area allows fighting (reach 1 for melee, the weapon range otherwise; a bow needs arrows in the ammo slot, else `MISSING_ITEMS`): the player swings every weapon speed ticks (default 4) while in reach and follows the target, until either dies, the player moves or the target leaves view (`INVALID_TARGET` for what cannot be fought)',
  },
});
