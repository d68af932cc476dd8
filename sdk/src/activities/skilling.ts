import { type ActivityOptions, activity, countItems, type Ended, itemDelta } from '../activity.ts';
import type { GameClient } from '../client.ts';
import type { ServerPayload } from '../protocol.generated.ts';

/** What a gathering or making run yielded: items gained and lost, xp per skill. */
export interface Yield {
  /** Item id -> change in the inventory during the run (negative: used up). */
  items: Map<string, number>;
  /** Skill -> xp gained during the run. */
  xp: Map<string, number>;
}

export type GatherOutcome =
  | ({
      status: 'stopped';
      /** `amount`: as many items as asked for were gathered (the run was then stopped). */
      reason: ServerPayload<'gathering:stop'>['reason'] | 'amount';
      resourceId: string;
    } & Yield)
  | (Ended & Yield & { resourceId: string | undefined });

export type MakeOutcome =
  | ({
      status: 'stopped';
      reason: ServerPayload<'processing:stop'>['reason'];
      recipeId: string;
      made: number;
    } & Yield)
  | (Ended & Yield & { made: number });

/** Follows the inventory and xp while a run lasts. */
function tracker(game: GameClient, onGain: (gained: number) => void) {
  const before = countItems(game.world.self?.inventory);
  const xp = new Map<string, number>();
  let items = new Map<string, number>();
  const offs = [
    game.on('player:sync', (s) => {
      items = itemDelta(before, countItems(s.inventory));
      let gained = 0;
      for (const d of items.values()) if (d > 0) gained += d;
      onGain(gained);
    }),
    game.on('skill:xp', (x) => {
      xp.set(x.skill, (xp.get(x.skill) ?? 0) + x.gained);
    }),
  ];
  return { offs, yieldOf: (): Yield => ({ items: new Map(items), xp: new Map(xp) }) };
}

/**
 * Gathers at a resource node (walking there first, as `player:action gather` does) until the server
 * stops it (`depleted`, `inventory_full`, `moved`, `interrupted`) or, with `amount`, until that many
 * items were gained (then it stops the run itself). A stop that belongs to a run started before this
 * one (the server ends a running gather when a new one starts) is not taken for this run's end.
 * Default timeout 60 s.
 */
export async function gatherAt(
  game: GameClient,
  targetId: string,
  opts: ActivityOptions & { amount?: number } = {},
): Promise<GatherOutcome> {
  let resourceId: string | undefined;
  let started = false;
  const t = tracker(game, (gained) => {
    if (!started) return;
    opts.onProgress?.({
      progress: gained,
      ...(opts.amount !== undefined ? { total: opts.amount } : {}),
      message: `${gained} gathered`,
    });
    if (opts.amount !== undefined && gained >= opts.amount && !reachedAmount) {
      reachedAmount = true;
      game.send('player:move', { cancel: true });
    }
  });
  let reachedAmount = false;
  const outcome = await activity<GatherOutcome>(game, {
    origin: 'player:action',
    timeoutMs: opts.timeoutMs ?? 60_000,
    signal: opts.signal,
    start: () => game.send('player:action', { action: 'gather', targetId }),
    stop: () => game.send('player:move', { cancel: true }),
    listen: (finish) => [
      ...t.offs,
      game.on('gathering:start', (s) => {
        started = true;
        resourceId = s.resourceId;
      }),
      game.on('gathering:stop', (s) => {
        if (!started) return;
        finish({
          status: 'stopped',
          reason: reachedAmount ? 'amount' : s.reason,
          resourceId: resourceId ?? '',
          ...t.yieldOf(),
        });
      }),
    ],
  });
  for (const off of t.offs) off();
  return outcome.status === 'stopped' ? outcome : { ...outcome, resourceId, ...t.yieldOf() };
}

/**
 * Makes `quantity` of a recipe (`skill:make`; `recipeId` is the output item id) at a station within
 * 1 tile (`targetId`, or the nearest fitting one), and settles when the batch ends (`processing:stop`:
 * done, missing_items, moved, inventory_full, interrupted). Default timeout 120 s.
 */
export async function makeRecipe(
  game: GameClient,
  recipe: { recipeId: string; quantity?: number; targetId?: string },
  opts: ActivityOptions = {},
): Promise<MakeOutcome> {
  let started = false;
  let made = 0;
  const total = recipe.quantity ?? 1;
  const t = tracker(game, () => {});
  const outcome = await activity<MakeOutcome>(game, {
    origin: 'skill:make',
    timeoutMs: opts.timeoutMs ?? 120_000,
    signal: opts.signal,
    start: () =>
      game.send('skill:make', {
        recipeId: recipe.recipeId,
        ...(recipe.quantity !== undefined ? { quantity: recipe.quantity } : {}),
        ...(recipe.targetId !== undefined ? { targetId: recipe.targetId } : {}),
      }),
    stop: () => game.send('player:move', { cancel: true }),
    listen: (finish) => [
      ...t.offs,
      game.on('processing:start', (s) => {
        if (s.recipeId === recipe.recipeId) started = true;
      }),
      game.on('skill:xp', () => {
        if (!started) return;
        made++;
        opts.onProgress?.({ progress: Math.min(made, total), total, message: `${made} of ${total} made` });
      }),
      game.on('processing:stop', (s) => {
        if (!started || s.recipeId !== recipe.recipeId) return;
        made = s.made;
        finish({ status: 'stopped', reason: s.reason, recipeId: s.recipeId, made: s.made, ...t.yieldOf() });
      }),
    ],
  });
  for (const off of t.offs) off();
  return outcome.status === 'stopped' ? outcome : { ...outcome, made, ...t.yieldOf() };
}
