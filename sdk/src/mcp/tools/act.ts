import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { actOn, fight, pickUp, talkTo } from '../../activities/interact.ts';
import { gatherAt, makeRecipe } from '../../activities/skilling.ts';
import { activity, countItems, itemDelta } from '../../activity.ts';
import { dialogueText, entityLine, itemsText, xpText } from '../describe.ts';
import type { GameSession } from '../session.ts';
import {
  answer,
  approach,
  type Extra,
  endedText,
  MAX_TIMEOUT_S,
  Reporter,
  reachTarget,
  resolveTarget,
  timeoutMs,
} from './common.ts';
import { findSlot } from './items.ts';

const VERBS = ['attack', 'gather', 'talk', 'shop', 'bank', 'pickup', 'trade', 'pray', 'use'] as const;
type Verb = (typeof VERBS)[number];

const timeout = z
  .number()
  .min(1)
  .max(MAX_TIMEOUT_S)
  .optional()
  .describe('Seconds before giving up (default 50).');

async function interact(
  s: GameSession,
  args: { verb: Verb; target: string; amount?: number | undefined; timeout_s?: number | undefined },
  extra: Extra,
): Promise<CallToolResult> {
  const ms = timeoutMs(args.timeout_s);
  const until = Date.now() + ms;
  const report = new Reporter(extra);
  const reached = await reachTarget(s, args.target, args.verb, {
    timeoutMs: ms,
    signal: extra.signal,
    report,
  });
  if ('error' in reached) return answer(s, `Cannot ${args.verb} ${args.target}: ${reached.error}`, true);
  report.nextPhase();
  const e = reached.entity;
  const lead = `${reached.walked ? `${reached.walked} ` : ''}Target: ${entityLine(s, e).slice(2)}\n`;
  const opts = {
    timeoutMs: Math.max(until - Date.now(), 1000),
    signal: extra.signal,
    onProgress: report.report,
  };
  switch (args.verb) {
    case 'attack': {
      const out = await fight(s.game, e.id, opts);
      const tally = `${out.hitsGiven} swings, ${out.damageDealt} damage dealt, ${out.damageTaken} taken`;
      switch (out.status) {
        case 'killed':
          return answer(s, `${lead}You killed it (${tally}).`);
        case 'died':
          return answer(s, `${lead}You died fighting it (${tally}).`);
        case 'target_gone':
          return answer(s, `${lead}It left your view (${tally}).`);
        case 'stopped':
          return answer(s, `${lead}The fight stopped (${tally}).`);
        default:
          return answer(s, `${lead}Attack ${endedText(out)} (${tally}).`, out.status === 'refused');
      }
    }
    case 'gather': {
      const out = await gatherAt(s.game, e.id, {
        ...opts,
        ...(args.amount !== undefined ? { amount: args.amount } : {}),
      });
      const got = yieldText(s, out);
      if (out.status === 'stopped') {
        const why =
          out.reason === 'amount' ? `gathered the ${args.amount} asked for` : out.reason.replace('_', ' ');
        return answer(s, `${lead}Gathering ended (${why})${got}.`);
      }
      return answer(s, `${lead}Gathering ${endedText(out)}${got}.`, out.status === 'refused');
    }
    case 'talk': {
      const out = await talkTo(s.game, e.id, opts);
      if (out.status === 'node') return answer(s, lead + dialogueText(s, out.node));
      return answer(s, `${lead}Talk ${endedText(out)}.`, true);
    }
    case 'shop': {
      const out = await actOn(s.game, 'shop', e.id, 'shop:open', opts);
      if (out.status !== 'done') return answer(s, `${lead}Shop ${endedText(out)}.`, true);
      return answer(s, lead + shopText(s));
    }
    case 'bank': {
      const out = await actOn(s.game, 'bank', e.id, 'bank:update', opts);
      if (out.status !== 'done') return answer(s, `${lead}Bank ${endedText(out)}.`, true);
      return answer(s, `${lead}Bank open. ${bankText(s)}`);
    }
    case 'use': {
      const out = await actOn(s.game, 'use', e.id, 'station:open', opts);
      if (out.status !== 'done') return answer(s, `${lead}Use ${endedText(out)}.`, true);
      const recipes = out.answer.recipes.map(
        (r) => `${s.content.itemName(r.recipeId)} [${r.recipeId}] (${r.kind} level ${r.level})`,
      );
      return answer(
        s,
        `${lead}Made here (make recipe=<id> station=${e.id}): ${recipes.join('; ') || 'nothing'}.`,
      );
    }
    case 'pray': {
      const out = await actOn(s.game, 'pray', e.id, 'prayer:state', opts);
      if (out.status !== 'done') return answer(s, `${lead}Pray ${endedText(out)}.`, true);
      return answer(s, `${lead}Prayer points restored: ${out.answer.points}/${out.answer.maxPoints}.`);
    }
    case 'pickup': {
      const out = await pickUp(s.game, e.id, opts);
      if (out.status !== 'done') return answer(s, `${lead}Pick up ${endedText(out)}.`, true);
      return answer(s, `${lead}Picked up: ${itemsText(s, out.items)}.`);
    }
    case 'trade': {
      if (e.type !== 'player') return answer(s, `${lead}Only players trade.`, true);
      const out = await activity<{ status: 'started' } | { status: 'failed'; why: string }>(s.game, {
        origin: 'player:action',
        timeoutMs: 5000,
        signal: extra.signal,
        start: () => s.game.send('player:action', { action: 'trade', targetId: e.id }),
        listen: (finish) => [
          s.game.on('tradeStarted', () => finish({ status: 'started' })),
          s.game.on('tradeError', (t) => finish({ status: 'failed', why: `${t.code}: ${t.message}` })),
        ],
      });
      if (out.status === 'started') return answer(s, `${lead}The trade is open: see the trade tool.`);
      if (out.status === 'failed') return answer(s, `${lead}Trade refused: ${out.why}.`, true);
      if (out.status === 'timeout')
        return answer(
          s,
          `${lead}Trade request sent to ${e.name}; they have to accept (wait_for event=trade).`,
        );
      return answer(s, `${lead}Trade ${endedText(out)}.`, true);
    }
  }
}

/** `: +5 Raw Minnow; +50 fishing xp`, or nothing when the run changed nothing. */
function yieldText(s: GameSession, y: { items: Map<string, number>; xp: Map<string, number> }): string {
  const parts = [
    ...(y.items.size > 0 ? [itemsText(s, y.items)] : []),
    ...(y.xp.size > 0 ? [xpText(y.xp)] : []),
  ];
  return parts.length > 0 ? `: ${parts.join('; ')}` : '';
}

export function shopText(s: GameSession): string {
  const shop = s.shop;
  if (shop === undefined) return 'No shop is open.';
  const items = shop.items.map(
    (i) =>
      `${s.content.itemName(i.itemId)} [${i.itemId}] ${i.price} coins${i.stock >= 0 ? ` (${i.stock} left)` : ''}`,
  );
  const buys = shop.buyback ? `It buys at ${Math.round(shop.sellRate * 100)}% of value.` : 'It buys nothing.';
  return `Shop "${shop.name}" [${shop.shopId}] sells: ${items.join('; ')}. ${buys} You have ${s.game.world.self?.coins ?? 0} coins.`;
}

export function bankText(s: GameSession): string {
  const items = (s.bank ?? []).map((i) => `${s.content.itemName(i.itemId)} [${i.itemId}] x${i.quantity}`);
  return `In the bank: ${items.join('; ') || 'nothing'}.`;
}

export function registerActions(server: McpServer, s: GameSession): void {
  server.registerTool(
    'interact',
    {
      title: 'Act on something',
      description:
        "Act on a target by verb, walking there first: attack (fight until it dies, you die or it leaves), gather (at a resource until it is depleted, your inventory is full, or `amount` items were gathered), talk (opens the NPC's dialogue: then use dialogue), shop (opens its shop: then use shop), bank (opens the bank: then use bank), pickup (a ground item), trade (asks a player), pray (at an altar), use (a station: lists its recipes for make). `target`: an entity id from look, a manifest id or name in view, or a map place (then you walk there first). Long actions report progress.",
      inputSchema: {
        verb: z.enum(VERBS),
        target: z.string().min(1).max(128),
        amount: z.number().int().min(1).max(28).optional().describe('gather: stop after this many items.'),
        timeout_s: timeout,
      },
    },
    (args, extra) => interact(s, args, extra),
  );

  server.registerTool(
    'use_item',
    {
      title: 'Use an item',
      description:
        'Use an inventory item (by slot number, item id or name): on its own (eat food, equip a weapon or armour, bury bones), on another item (`on`: a slot, item id or name, e.g. a tinderbox on logs to light a fire), or on an entity in view (`on`: an entity id, manifest id or name, e.g. raw fish on a fire). Answers what changed; a batch it starts (cooking, firemaking) runs until it ends.',
      inputSchema: {
        item: z.string().min(1).max(128).describe('Slot number, item id or item name.'),
        on: z.string().min(1).max(128).optional().describe('Another item (slot, id or name) or an entity.'),
        timeout_s: timeout,
      },
    },
    async (args, extra) => {
      const inv = s.game.world.self?.inventory ?? [];
      const slot = findSlot(s, inv, args.item);
      if (slot === undefined) return answer(s, `You hold no "${args.item}".`, true);
      let target: { targetSlot?: number; targetId?: string } = {};
      if (args.on !== undefined) {
        const other = findSlot(s, inv, args.on, slot);
        if (other !== undefined) target = { targetSlot: other };
        else {
          const t = resolveTarget(s, args.on);
          if (t.kind !== 'entity')
            return answer(s, `Nothing called "${args.on}" in your inventory or in view.`, true);
          target = { targetId: t.entity.id };
        }
      }
      const before = countItems(inv);
      const hp = s.game.world.self?.health ?? 0;
      const equipped = JSON.stringify(s.game.world.self?.equipment ?? {});
      const report = new Reporter(extra);
      let batch: string | undefined;
      const out = await activity<{ status: 'done'; made?: number; reason?: string }>(s.game, {
        origin: 'inventory:use',
        timeoutMs: timeoutMs(args.timeout_s),
        signal: extra.signal,
        start: () => s.game.send('inventory:use', { slot, ...target }),
        stop: () => s.game.send('player:move', { cancel: true }),
        listen: (finish) => {
          // A plain use settles on the first change of the character; a batch when it stops.
          const quiet = setTimeout(() => finish({ status: 'done' }), 3000);
          return [
            () => clearTimeout(quiet),
            s.game.on('processing:start', (p) => {
              clearTimeout(quiet);
              batch = p.recipeId;
            }),
            s.game.on('processing:stop', (p) => finish({ status: 'done', made: p.made, reason: p.reason })),
            s.game.on('skill:xp', (x) =>
              report.report({ progress: x.xp, message: `+${x.gained} ${x.skill} xp` }),
            ),
            s.game.on('player:sync', () => {
              if (batch === undefined) setTimeout(() => finish({ status: 'done' }), 50);
            }),
          ];
        },
      });
      const me = s.game.world.self;
      const changes = [
        itemDelta(before, countItems(me?.inventory)).size > 0
          ? `items ${itemsText(s, itemDelta(before, countItems(me?.inventory)))}`
          : '',
        me && me.health !== hp ? `health ${hp} -> ${me.health}/${me.maxHealth}` : '',
        me && JSON.stringify(me.equipment) !== equipped ? 'equipment changed' : '',
        out.status === 'done' && 'made' in out && out.made !== undefined
          ? `made ${out.made} (${out.reason})`
          : '',
      ].filter((c) => c !== '');
      if (out.status !== 'done') return answer(s, `Use ${endedText(out)}.`, out.status === 'refused');
      return answer(
        s,
        changes.length > 0 ? `Used it: ${changes.join('; ')}.` : 'Used it; nothing visible changed.',
      );
    },
  );

  server.registerTool(
    'make',
    {
      title: 'Make a recipe',
      description:
        'Make `quantity` (1-28) of a recipe at a station: cooking at a range or fire, smelting at a furnace, smithing at an anvil, runecrafting at an altar... `recipe` is the output item id (interact verb=use on a station lists them). `station`: the station to use (entity id, type or name); you walk next to it first. Runs until the batch ends, with progress.',
      inputSchema: {
        recipe: z.string().min(1).max(128),
        quantity: z.number().int().min(1).max(28).optional(),
        station: z.string().min(1).max(128).optional(),
        timeout_s: timeout,
      },
    },
    async (args, extra) => {
      const ms = timeoutMs(args.timeout_s);
      const report = new Reporter(extra);
      let targetId: string | undefined;
      let walked = '';
      if (args.station !== undefined) {
        const r = await reachTarget(s, args.station, 'use', { timeoutMs: ms, signal: extra.signal, report });
        if ('error' in r) return answer(s, `Cannot reach ${args.station}: ${r.error}`, true);
        targetId = r.entity.id;
        walked = r.walked ? `${r.walked} ` : '';
        const here = s.game.world;
        if (here.distanceTo(r.entity.x, r.entity.z) > 1) {
          await approach(s, r.entity, { reach: 1, timeoutMs: ms, signal: extra.signal, report });
        }
        report.nextPhase();
      }
      const out = await makeRecipe(
        s.game,
        {
          recipeId: args.recipe,
          ...(args.quantity !== undefined ? { quantity: args.quantity } : {}),
          ...(targetId !== undefined ? { targetId } : {}),
        },
        { timeoutMs: ms, signal: extra.signal, onProgress: report.report },
      );
      const got = yieldText(s, out);
      if (out.status === 'stopped')
        return answer(
          s,
          `${walked}Made ${out.made} ${s.content.itemName(out.recipeId)} (${out.reason.replace('_', ' ')})${got}.`,
        );
      return answer(s, `${walked}Make ${endedText(out)}${got}.`, out.status === 'refused');
    },
  );
}
