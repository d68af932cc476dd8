import type { z } from 'zod';
import type { ItemStack } from '../../core/character-state.ts';
import { defineContent } from '../../core/faces/content.ts';
import { normalizeSkill, type Skill } from '../../core/skills.ts';
import {
  cookingFileSchema,
  craftingFileSchema,
  firemakingFileSchema,
  fletchingFileSchema,
  runecraftingFileSchema,
  smeltingFileSchema,
  smithingFileSchema,
  tanningFileSchema,
} from './content-recipes.ts';

/**
 * Processing's content face: recipes/*.json (cooking, smelting, smithing, firemaking, crafting,
 * fletching, tanning, runecrafting), their item checks, and every recipe as one shape (RecipeInfo).
 */

export type RecipeKind =
  | 'cooking'
  | 'firemaking'
  | 'smelting'
  | 'smithing'
  | 'crafting'
  | 'fletching'
  | 'tanning'
  | 'runecrafting';

/** A processing recipe of any kind (recipes/*.json), normalised. */
export interface RecipeInfo {
  readonly kind: RecipeKind;
  /** The `skill:make` id: the output item id (the cooked item; for firemaking, the logs id). */
  readonly id: string;
  /** The skill trained and checked; null for tanning (no skill). */
  readonly skill: Skill | null;
  readonly level: number;
  /** Experience per item made (rounded to whole points when granted). */
  readonly xp: number;
  /** Ticks per item. */
  readonly ticks: number;
  /** Consumed per item made. */
  readonly inputs: readonly ItemStack[];
  /** One of these is consumed per item as well (runecrafting essence), first owned first; empty = none. */
  readonly anyOf: readonly string[];
  /** Held, not consumed (hammer, tinderbox, knife, needle, chisel, moulds). */
  readonly tools: readonly string[];
  /** Consumed once every `uses` items (thread). */
  readonly consumables: readonly { readonly itemId: string; readonly uses: number }[];
  /** Added per item made. Empty for firemaking (the logs become a fire). */
  readonly outputs: readonly ItemStack[];
  /** Station types any of which the recipe needs within reach; empty = anywhere. */
  readonly stations: readonly string[];
  /** Cooking: the burnt item and the level from which each station never burns. */
  readonly burnt: string | null;
  readonly stopBurnLevel: Readonly<Partial<Record<string, number>>>;
  /** Chance an item comes out (smelting iron); a failure consumes the inputs and gives nothing. */
  readonly successRate: number;
  /** Coins paid per item (tanning). */
  readonly coins: number;
  /** Firemaking: ticks the lit fire burns. */
  readonly fireTicks: number;
  /** Runecrafting: levels at which each essence gives one more rune. */
  readonly multiLevels: readonly number[];
}

declare module '../../core/content.ts' {
  interface ContentParts {
    /** Processing recipes of every kind, in manifest order. */
    recipes: readonly RecipeInfo[];
  }
}

const FILES = {
  'recipes/cooking.json': cookingFileSchema,
  'recipes/smelting.json': smeltingFileSchema,
  'recipes/smithing.json': smithingFileSchema,
  'recipes/firemaking.json': firemakingFileSchema,
  'recipes/crafting.json': craftingFileSchema,
  'recipes/fletching.json': fletchingFileSchema,
  'recipes/tanning.json': tanningFileSchema,
  'recipes/runecrafting.json': runecraftingFileSchema,
};

type Recipes = {
  [K in keyof typeof FILES as K extends `recipes/${infer N}.json` ? N : never]: z.output<
    (typeof FILES)[K]
  >['recipes'];
};

export const processingContent = defineContent({
  files: FILES,
  docs: {
    'recipes/cooking.json':
      'Cooking: `{ recipes: [{ raw, cooked, burnt, level, xp, ticks, stopBurnLevel?: { fire?, range? } }] }`, on a fire or a range.',
    'recipes/smelting.json':
      'Smelting: `{ recipes: [{ output, inputs: [{ item, amount }], level, xp, ticks, successRate (default 1) }] }`, at a furnace.',
    'recipes/smithing.json':
      'Smithing: `{ recipes: [{ output, bar, barsRequired, level, xp, ticks, outputQuantity (default 1) }] }`, at an anvil with a hammer.',
    'recipes/firemaking.json':
      'Firemaking: `{ recipes: [{ log, level, xp, ticks, burnTicks? }] }` (a tinderbox lights the logs; the fire burns `burnTicks`, else `ticks`).',
    'recipes/crafting.json':
      'Crafting: `{ recipes: [{ output, outputQuantity, inputs, tools, consumables: [{ item, uses }], level, xp, ticks, station (default `none`), skill? }] }`.',
    'recipes/fletching.json': 'Fletching: as crafting.json.',
    'recipes/tanning.json': 'Tanning: `{ recipes: [{ input, output, cost }] }` (coins per hide; no skill).',
    'recipes/runecrafting.json':
      'Runecrafting: `{ recipes: [{ runeType, runeItemId, levelRequired, xpPerEssence, essenceTypes, multiRuneLevels }] }`, at an altar.',
  },
  check(d, ctx) {
    const item = (file: string, where: string, id: string, soft = false) => ctx.item(file, where, id, soft);
    for (const [i, r] of (d['recipes/cooking.json']?.recipes ?? []).entries()) {
      const at = `recipe ${i} ("${r.raw}")`;
      item('recipes/cooking.json', `${at} raw`, r.raw);
      item('recipes/cooking.json', `${at} cooked`, r.cooked);
      item('recipes/cooking.json', `${at} burnt`, r.burnt, true);
    }
    for (const [i, r] of (d['recipes/smelting.json']?.recipes ?? []).entries()) {
      item('recipes/smelting.json', `recipe ${i} output`, r.output);
      for (const [j, x] of r.inputs.entries())
        item('recipes/smelting.json', `recipe ${i} ("${r.output}") inputs[${j}]`, x.item);
    }
    for (const [i, r] of (d['recipes/smithing.json']?.recipes ?? []).entries()) {
      item('recipes/smithing.json', `recipe ${i} output`, r.output);
      item('recipes/smithing.json', `recipe ${i} ("${r.output}") bar`, r.bar);
    }
    for (const [i, r] of (d['recipes/firemaking.json']?.recipes ?? []).entries())
      item('recipes/firemaking.json', `recipe ${i} log`, r.log);
    for (const file of ['recipes/crafting.json', 'recipes/fletching.json'] as const) {
      for (const [i, r] of (d[file]?.recipes ?? []).entries()) {
        const at = `recipe ${i} ("${r.output}")`;
        item(file, `recipe ${i} output`, r.output);
        for (const [j, x] of r.inputs.entries()) item(file, `${at} inputs[${j}]`, x.item);
        for (const [j, t] of r.tools.entries()) item(file, `${at} tools[${j}]`, t);
        for (const [j, x] of r.consumables.entries()) item(file, `${at} consumables[${j}]`, x.item);
      }
    }
    for (const [i, r] of (d['recipes/tanning.json']?.recipes ?? []).entries()) {
      item('recipes/tanning.json', `recipe ${i} input`, r.input);
      item('recipes/tanning.json', `recipe ${i} output`, r.output);
    }
    for (const [i, r] of (d['recipes/runecrafting.json']?.recipes ?? []).entries()) {
      item('recipes/runecrafting.json', `recipe ${i} runeItemId`, r.runeItemId);
      for (const [j, e] of r.essenceTypes.entries())
        item('recipes/runecrafting.json', `recipe ${i} essenceTypes[${j}]`, e);
    }
  },
  build: (d, ctx) => ({
    recipes: recipesOf(
      {
        cooking: d['recipes/cooking.json']?.recipes ?? [],
        smelting: d['recipes/smelting.json']?.recipes ?? [],
        smithing: d['recipes/smithing.json']?.recipes ?? [],
        firemaking: d['recipes/firemaking.json']?.recipes ?? [],
        crafting: d['recipes/crafting.json']?.recipes ?? [],
        fletching: d['recipes/fletching.json']?.recipes ?? [],
        tanning: d['recipes/tanning.json']?.recipes ?? [],
        runecrafting: d['recipes/runecrafting.json']?.recipes ?? [],
      },
      (id) => ctx.has('item', id),
    ),
  }),
});

/**
 * Tools the recipe files do not name but the game needs: a tinderbox lights logs, a hammer works the
 * anvil. Required only when the content has such an item.
 */
const FIREMAKING_TOOL = 'tinderbox';
const SMITHING_TOOL = 'hammer';
/** Cooking happens on a fire or a range; smelting at a furnace, smithing at an anvil, runes at an altar. */
const COOKING_STATIONS = ['fire', 'range'];

const stack = (itemId: string, quantity: number) => ({ itemId, quantity });

/** Every recipe of every kind as one shape (RecipeInfo), in file order. */
function recipesOf(r: Recipes, has: (itemId: string) => boolean): RecipeInfo[] {
  const base = {
    anyOf: [],
    tools: [],
    consumables: [],
    stations: [],
    burnt: null,
    stopBurnLevel: {},
    successRate: 1,
    coins: 0,
    fireTicks: 0,
    multiLevels: [],
  } as const;
  const out: RecipeInfo[] = [];
  for (const c of r.cooking) {
    out.push({
      ...base,
      kind: 'cooking',
      id: c.cooked,
      skill: 'cooking',
      level: c.level,
      xp: c.xp,
      ticks: c.ticks,
      inputs: [stack(c.raw, 1)],
      outputs: [stack(c.cooked, 1)],
      stations: COOKING_STATIONS,
      burnt: c.burnt,
      stopBurnLevel: { ...(c.stopBurnLevel ?? {}) },
    });
  }
  for (const f of r.firemaking) {
    out.push({
      ...base,
      kind: 'firemaking',
      id: f.log,
      skill: 'firemaking',
      level: f.level,
      xp: f.xp,
      ticks: f.ticks,
      inputs: [stack(f.log, 1)],
      tools: has(FIREMAKING_TOOL) ? [FIREMAKING_TOOL] : [],
      outputs: [],
      fireTicks: f.burnTicks ?? f.ticks,
    });
  }
  for (const m of r.smelting) {
    out.push({
      ...base,
      kind: 'smelting',
      id: m.output,
      skill: 'smithing',
      level: m.level,
      xp: m.xp,
      ticks: m.ticks,
      inputs: m.inputs.map((i) => stack(i.item, i.amount)),
      outputs: [stack(m.output, 1)],
      stations: ['furnace'],
      successRate: m.successRate,
    });
  }
  for (const m of r.smithing) {
    out.push({
      ...base,
      kind: 'smithing',
      id: m.output,
      skill: 'smithing',
      level: m.level,
      xp: m.xp,
      ticks: m.ticks,
      inputs: [stack(m.bar, m.barsRequired)],
      tools: has(SMITHING_TOOL) ? [SMITHING_TOOL] : [],
      outputs: [stack(m.output, m.outputQuantity)],
      stations: ['anvil'],
    });
  }
  for (const [kind, list] of [
    ['crafting', r.crafting],
    ['fletching', r.fletching],
  ] as const) {
    for (const m of list) {
      out.push({
        ...base,
        kind,
        id: m.output,
        skill: (m.skill ? normalizeSkill(m.skill) : undefined) ?? kind,
        level: m.level,
        xp: m.xp,
        ticks: m.ticks,
        inputs: m.inputs.map((i) => stack(i.item, i.amount)),
        tools: [...m.tools],
        consumables: m.consumables.map((c) => ({ itemId: c.item, uses: c.uses })),
        outputs: [stack(m.output, m.outputQuantity)],
        stations: m.station === 'none' ? [] : [m.station],
      });
    }
  }
  for (const t of r.tanning) {
    out.push({
      ...base,
      kind: 'tanning',
      id: t.output,
      skill: null,
      level: 1,
      xp: 0,
      ticks: 1,
      inputs: [stack(t.input, 1)],
      outputs: [stack(t.output, 1)],
      coins: t.cost,
    });
  }
  for (const m of r.runecrafting) {
    out.push({
      ...base,
      kind: 'runecrafting',
      id: m.runeItemId,
      skill: 'runecrafting',
      level: m.levelRequired,
      xp: m.xpPerEssence,
      ticks: 1,
      inputs: [],
      anyOf: [...m.essenceTypes],
      outputs: [stack(m.runeItemId, 1)],
      stations: ['altar'],
      multiLevels: [...m.multiRuneLevels],
    });
  }
  return out;
}
