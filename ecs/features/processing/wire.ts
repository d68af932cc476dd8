import { z } from 'zod';
import { id } from '../../core/faces/primitives.ts';
import { clientEvent, command, defineWire, serverEvent } from '../../core/faces/wire.ts';

/** Processing's wire face: cooking, firemaking, smelting, smithing, crafting, fletching, tanning, runecrafting; the `use` verb. */

/** Why a batch of processing ended. */
export const PROCESSING_STOP_REASONS = [
  'done',
  'missing_items',
  'moved',
  'inventory_full',
  'interrupted',
] as const;

/** What a station offers (`player:action use`). */
export const stationOffer = z.object({ recipeId: z.string(), kind: z.string(), level: z.number().int() });

export const processingStart = z.object({ recipeId: z.string(), quantity: z.number().int() });
export const processingStop = z.object({
  recipeId: z.string(),
  made: z.number().int(),
  reason: z.enum(PROCESSING_STOP_REASONS),
});
export const stationOpen = z.object({
  targetId: z.string(),
  stationType: z.string(),
  recipes: z.array(stationOffer),
});

export const processingWire = defineWire({
  client: {
    'skill:make': clientEvent({
      schema: z.object({
        recipeId: z.string().min(1).max(128),
        quantity: z.number().int().min(1).max(28).optional(),
        targetId: id.optional(),
      }),
      doc: 'Make `quantity` (default 1, at most 28) of a recipe, one every recipe `ticks`. `recipeId` is the output item id (cooking: the cooked item; firemaking: the logs; runecrafting: the rune). `targetId`: the station the recipe needs (range or fire, furnace, anvil, altar), within 1 tile; left out, the nearest fitting station within 1 tile is used. Refusals: `NOT_FOUND` (no such recipe), `INVALID_TARGET` (no fitting station; or a fire where a station stands), `TOO_FAR`, `LEVEL_TOO_LOW`, `MISSING_TOOL`, `MISSING_ITEMS`, `INSUFFICIENT_FUNDS` (tanning), `INVENTORY_FULL`. Moving, being hit or another action stops the batch (`processing:stop`).',
      translate: (base, p) =>
        command({
          ...base,
          type: 'skillMake',
          recipeId: p.recipeId,
          quantity: p.quantity,
          targetId: p.targetId,
        }),
    }),
  },
  server: {
    'processing:start': serverEvent({
      schema: processingStart,
      doc: 'A batch started (from `skill:make` or an item used on an item or a station).',
      from: 'processingStart',
    }),
    'processing:stop': serverEvent({
      schema: processingStop,
      doc: 'A batch ended after `made` items (a burnt or failed item counts): `done`, `missing_items` (inputs, essence, thread or coins ran out), `moved`, `inventory_full`, `interrupted` (hit, another action, the station gone, a tool gone).',
      from: 'processingStop',
    }),
    'station:open': serverEvent({
      schema: stationOpen,
      doc: 'Answer to `player:action use` on a station: the recipes made there (`skill:make` with this `targetId`).',
      from: 'stationOpen',
    }),
  },
  verbs: {
    use: 'a station (reach 1: furnace, anvil, range, fire, altar; answers `station:open` with what can be made there; a station nothing is made at, `INVALID_TARGET`)',
  },
});
