import { z } from 'zod';
import { defineContent } from '../../core/faces/content.ts';
import { idSchema, levelSchema } from '../../core/faces/manifest-primitives.ts';

/** Prayer's content face: prayers.json, the prayers with their level, drain, bonuses and conflicts. */

export const prayersFileSchema = z.object({
  prayers: z.array(
    z.object({
      id: idSchema,
      name: z.string().min(1),
      description: z.string().optional(),
      level: levelSchema,
      category: z.enum(['offensive', 'defensive', 'utility']),
      drainEffect: z.number().min(0),
      bonuses: z.record(z.string(), z.number()).default({}),
      conflicts: z.array(idSchema).default([]),
    }),
  ),
});

/** prayers.json. */
export interface PrayerInfo {
  readonly id: string;
  readonly name: string;
  readonly level: number;
  readonly drainEffect: number;
  /** attackMultiplier, strengthMultiplier, defenseMultiplier ... */
  readonly bonuses: Readonly<Record<string, number>>;
  readonly conflicts: readonly string[];
}

declare module '../../core/content.ts' {
  interface ContentParts {
    /** Prayers by id, in manifest order. */
    prayers: ReadonlyMap<string, PrayerInfo>;
  }
}

export const prayerContent = defineContent({
  files: { 'prayers.json': prayersFileSchema },
  docs: {
    'prayers.json':
      'Prayers: `{ prayers: [{ id, name, description?, level, category (offensive, defensive, utility), drainEffect, bonuses: { attackMultiplier?, strengthMultiplier?, defenseMultiplier?... }, conflicts: [prayer id] }] }`. A conflict may name a prayer the file does not have (not checked).',
  },
  // Prayer `conflicts` name prayers beyond the shipped set (piety, rigour ...): not checked.
  check(d, ctx) {
    ctx.unique(
      'prayers.json',
      'prayer',
      (d['prayers.json']?.prayers ?? []).map((p) => p.id),
    );
  },
  build: (d) => ({
    prayers: new Map(
      (d['prayers.json']?.prayers ?? []).map((p) => [
        p.id,
        Object.freeze({
          id: p.id,
          name: p.name,
          level: p.level,
          drainEffect: p.drainEffect,
          bonuses: Object.freeze({ ...p.bonuses }),
          conflicts: Object.freeze([...p.conflicts]),
        }),
      ]),
    ),
  }),
});
