import { z } from 'zod';
import type { ItemStack } from '../../core/character-state.ts';
import { defineContent } from '../../core/faces/content.ts';
import { idSchema, levelSchema, posInt } from '../../core/faces/manifest-primitives.ts';

/** Combat's content face: combat-spells.json (the spells), runes.json and ammunition.json (their items). */

export const ammunitionFileSchema = z.object({
  arrows: z.array(
    z.object({
      id: idSchema,
      name: z.string().min(1),
      rangedStrength: z.number(),
      requiredRangedLevel: levelSchema,
      requiredBowTier: z.number().int().min(0),
    }),
  ),
});

export const runesFileSchema = z.object({
  runes: z.array(
    z.object({
      id: idSchema,
      name: z.string().min(1),
      element: z.string().nullable(),
      stackable: z.boolean(),
    }),
  ),
  elementalStaves: z.array(z.object({ staffId: idSchema, providesInfinite: z.array(idSchema) })).default([]),
});

const spellSchema = z.object({
  id: idSchema,
  name: z.string().min(1),
  level: levelSchema,
  baseMaxHit: z.number().int().min(0),
  baseXp: z.number().min(0),
  element: z.string().optional(),
  attackSpeed: posInt,
  runes: z.array(z.object({ runeId: idSchema, quantity: posInt })).min(1),
});

export const combatSpellsFileSchema = z.object({
  standard: z.record(z.string(), z.array(spellSchema)),
});

/** A combat spell: magic level needed, its maximum hit, ticks between casts, the runes one cast uses. */
export interface SpellInfo {
  readonly id: string;
  readonly name: string;
  readonly level: number;
  readonly baseMaxHit: number;
  readonly attackSpeed: number;
  readonly runes: readonly ItemStack[];
}

declare module '../../core/content.ts' {
  interface ContentParts {
    /** Combat spells (combat-spells.json) by id. */
    spells: ReadonlyMap<string, SpellInfo>;
  }
}

declare module '../../core/faces/content.ts' {
  interface IdSpaces {
    /** Combat spells, named by an NPC's `combat.spellId` in npcs.json. */
    spell: true;
  }
}

export const combatContent = defineContent({
  files: {
    'combat-spells.json': combatSpellsFileSchema,
    'runes.json': runesFileSchema,
    'ammunition.json': ammunitionFileSchema,
  },
  docs: {
    'combat-spells.json':
      'Combat spells by spellbook: `{ standard: { <book>: [{ id, name, level, baseMaxHit, baseXp, element?, attackSpeed, runes: [{ runeId, quantity }] }] } }`. A spell is cast by autocast (`combat:spell`) or by an NPC whose `combat.spellId` names it.',
    'runes.json':
      'Runes and elemental staves: `{ runes: [{ id, name, element, stackable }], elementalStaves: [{ staffId, providesInfinite: [rune id] }] }`; every id must be an item.',
    'ammunition.json':
      'Arrows: `{ arrows: [{ id, name, rangedStrength, requiredRangedLevel, requiredBowTier }] }`; every id must be an item.',
  },
  defines: (d) => {
    const spells = d['combat-spells.json'];
    return spells ? { spell: Object.values(spells.standard).flatMap((list) => list.map((s) => s.id)) } : {};
  },
  check(d, ctx) {
    for (const [i, a] of (d['ammunition.json']?.arrows ?? []).entries())
      ctx.item('ammunition.json', `arrow ${i}`, a.id);
    for (const [i, r] of (d['runes.json']?.runes ?? []).entries()) ctx.item('runes.json', `rune ${i}`, r.id);
    for (const [i, s] of (d['runes.json']?.elementalStaves ?? []).entries()) {
      ctx.item('runes.json', `elementalStaves[${i}] staffId`, s.staffId);
      for (const [j, r] of s.providesInfinite.entries())
        ctx.item('runes.json', `elementalStaves[${i}] providesInfinite[${j}]`, r);
    }
    for (const [book, spells] of Object.entries(d['combat-spells.json']?.standard ?? {})) {
      for (const [i, s] of spells.entries()) {
        for (const [j, r] of s.runes.entries())
          ctx.item('combat-spells.json', `standard.${book}[${i}] ("${s.id}") runes[${j}]`, r.runeId);
      }
    }
  },
  build: (d) => ({
    spells: new Map(
      Object.values(d['combat-spells.json']?.standard ?? {})
        .flat()
        .map((sp) => [
          sp.id,
          Object.freeze({
            id: sp.id,
            name: sp.name,
            level: sp.level,
            baseMaxHit: sp.baseMaxHit,
            attackSpeed: sp.attackSpeed,
            runes: Object.freeze(
              sp.runes.map((r): ItemStack => Object.freeze({ itemId: r.runeId, quantity: r.quantity })),
            ),
          }),
        ]),
    ),
  }),
});
