import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { actOn, chooseOption } from '../../activities/interact.ts';
import { activity, countItems, type Ended, itemDelta } from '../../activity.ts';
import type { ClientEventName, ClientPayload, ServerEventName } from '../../protocol.generated.ts';
import { dialogueText, inventoryText, itemsText } from '../describe.ts';
import type { GameSession } from '../session.ts';
import { bankText, shopText } from './act.ts';
import { answer, type Extra, endedText, MAX_TIMEOUT_S, Reporter, reachTarget, timeoutMs } from './common.ts';
import { findItemId, findSlot } from './items.ts';

/** Sends one command and waits for the answer event (or the server's refusal). */
function ask<E extends ClientEventName>(
  s: GameSession,
  event: E,
  payload: ClientPayload<E>,
  answerEvent: ServerEventName,
  signal?: AbortSignal,
): Promise<{ status: 'done' } | Ended> {
  return activity<{ status: 'done' }>(s.game, {
    origin: event,
    timeoutMs: 10_000,
    signal,
    start: () => s.game.send(event, payload),
    listen: (finish) => [s.game.on(answerEvent as 'bank:update', () => finish({ status: 'done' }))],
  });
}

const timeout = z
  .number()
  .min(1)
  .max(MAX_TIMEOUT_S)
  .optional()
  .describe('Seconds before giving up (default 50).');

export function registerInterfaces(server: McpServer, s: GameSession): void {
  server.registerTool(
    'bank',
    {
      title: 'Use the bank',
      description:
        'Deposit or withdraw items at a bank; opens the nearest bank (booth or banker, walking there) when none is open near you. `deposit` an item (slot, id or name) or `deposit_all` but what you name in `keep` (comma-separated); `withdraw` an item id or name; `show` lists the bank.',
      inputSchema: {
        action: z.enum(['show', 'deposit', 'deposit_all', 'withdraw']),
        item: z.string().min(1).max(128).optional(),
        quantity: z
          .number()
          .int()
          .min(1)
          .optional()
          .describe('Default: the whole stack (deposit) or all that fits (withdraw).'),
        keep: z.string().max(500).optional().describe('deposit_all: items to keep, comma-separated.'),
        timeout_s: timeout,
      },
    },
    async (args, extra) => {
      const opened = await openBank(s, args.timeout_s, extra);
      if (opened !== undefined) return answer(s, opened, true);
      const inv = () => s.game.world.self?.inventory ?? [];
      const done: string[] = [];
      const fail = (what: string, out: Ended) => answer(s, `${what} ${endedText(out)}. ${bankText(s)}`, true);
      if (args.action === 'deposit' || args.action === 'deposit_all') {
        const keep = (args.keep ?? '')
          .split(',')
          .map((k) => k.trim())
          .filter((k) => k !== '');
        const kept = new Set(keep.map((k) => findSlot(s, inv(), k)).filter((x) => x !== undefined));
        const slots =
          args.action === 'deposit'
            ? [findSlot(s, inv(), args.item ?? '')]
            : inv().flatMap((i, slot) => (i && !kept.has(slot) ? [slot] : []));
        if (slots[0] === undefined) return answer(s, `You hold no "${args.item ?? ''}".`, true);
        for (const slot of slots) {
          const held = inv()[slot as number];
          if (!held) continue;
          const out = await ask(
            s,
            'bank:deposit',
            {
              slot: slot as number,
              ...(args.quantity !== undefined && args.action === 'deposit'
                ? { quantity: args.quantity }
                : {}),
            },
            'bank:update',
            extra.signal,
          );
          if (out.status !== 'done') return fail(`Deposit of ${s.content.itemName(held.itemId)}`, out);
          done.push(s.content.itemName(held.itemId));
        }
      } else if (args.action === 'withdraw') {
        const bankId = findItemId(
          s,
          (s.bank ?? []).map((i) => i.itemId),
          args.item ?? '',
        );
        const stack = (s.bank ?? []).find((i) => i.itemId === bankId);
        if (stack === undefined)
          return answer(s, `The bank holds no "${args.item ?? ''}". ${bankText(s)}`, true);
        const out = await ask(
          s,
          'bank:withdraw',
          { itemId: stack.itemId, ...(args.quantity !== undefined ? { quantity: args.quantity } : {}) },
          'bank:update',
          extra.signal,
        );
        if (out.status !== 'done') return fail('Withdrawal', out);
        done.push(`took ${s.content.itemName(stack.itemId)}`);
      }
      const did = done.length > 0 ? `Done: ${done.join(', ')}. ` : '';
      return answer(s, `${did}${bankText(s)} Inventory: ${inventoryText(s, inv())}.`);
    },
  );

  server.registerTool(
    'shop',
    {
      title: 'Buy or sell at a shop',
      description:
        'At the open shop (or at `keeper`, which opens its shop, walking there): `show` its items and prices, `buy` an item (id or name) or `sell` one of yours (slot, id or name), `quantity` default 1 (sell: the whole stack); `close` it (an open shop blocks other uses of your items).',
      inputSchema: {
        action: z.enum(['show', 'buy', 'sell', 'close']),
        item: z.string().min(1).max(128).optional(),
        quantity: z.number().int().min(1).optional(),
        keeper: z.string().min(1).max(128).optional().describe('The shopkeeper (id, manifest id or name).'),
        timeout_s: timeout,
      },
    },
    async (args, extra) => {
      if (args.keeper !== undefined && s.shop === undefined) {
        const ms = timeoutMs(args.timeout_s);
        const r = await reachTarget(s, args.keeper, 'shop', {
          timeoutMs: ms,
          signal: extra.signal,
          report: new Reporter(extra),
        });
        if ('error' in r) return answer(s, `Cannot reach ${args.keeper}: ${r.error}`, true);
        const out = await actOn(s.game, 'shop', r.entity.id, 'shop:open', {
          timeoutMs: ms,
          signal: extra.signal,
        });
        if (out.status !== 'done') return answer(s, `Opening the shop ${endedText(out)}.`, true);
      }
      const shop = s.shop;
      if (shop === undefined)
        return answer(s, 'No shop is open: give `keeper`, or interact verb=shop first.', true);
      if (args.action === 'show') return answer(s, shopText(s));
      if (args.action === 'close') {
        const closed = await ask(s, 'shop:close', { shopId: shop.shopId }, 'shop:closed', extra.signal);
        return answer(
          s,
          closed.status === 'done' ? 'Shop closed.' : `Closing ${endedText(closed)}.`,
          closed.status !== 'done',
        );
      }
      const before = countItems(s.game.world.self?.inventory);
      const coins = s.game.world.self?.coins ?? 0;
      let out: { status: 'done' } | Ended;
      if (args.action === 'buy') {
        const shopId = findItemId(
          s,
          shop.items.map((i) => i.itemId),
          args.item ?? '',
        );
        const it = shop.items.find((i) => i.itemId === shopId);
        if (it === undefined)
          return answer(s, `The shop sells no "${args.item ?? ''}". ${shopText(s)}`, true);
        out = await ask(
          s,
          'shop:buy',
          { shopId: shop.shopId, itemId: it.itemId, quantity: args.quantity ?? 1 },
          'player:sync',
          extra.signal,
        );
      } else {
        const slot = findSlot(s, s.game.world.self?.inventory ?? [], args.item ?? '');
        if (slot === undefined) return answer(s, `You hold no "${args.item ?? ''}".`, true);
        out = await ask(
          s,
          'shop:sell',
          { shopId: shop.shopId, slot, ...(args.quantity !== undefined ? { quantity: args.quantity } : {}) },
          'player:sync',
          extra.signal,
        );
      }
      if (out.status !== 'done')
        return answer(s, `${args.action === 'buy' ? 'Buying' : 'Selling'} ${endedText(out)}.`, true);
      const delta = itemDelta(before, countItems(s.game.world.self?.inventory));
      return answer(s, `Done: ${itemsText(s, delta)}; coins ${coins} -> ${s.game.world.self?.coins ?? 0}.`);
    },
  );

  server.registerTool(
    'dialogue',
    {
      title: 'Talk: read or answer the conversation',
      description:
        'The open conversation (started with interact verb=talk): without arguments, what the NPC says and the answers offered; `choose` an answer by its id or its words, which runs its effect (a shop, a quest start...) and shows the next node; `close` ends the conversation.',
      inputSchema: {
        choose: z.string().min(1).max(200).optional(),
        close: z.boolean().optional(),
      },
    },
    async (args, extra) => {
      const node = s.dialogue;
      if (args.close) {
        if (node === undefined) return answer(s, 'No conversation is open.');
        s.game.send('dialogue:close', {});
        s.dialogue = undefined;
        return answer(s, 'Conversation closed.');
      }
      if (node === undefined)
        return answer(s, 'No conversation is open: interact verb=talk with an NPC first.', true);
      if (args.choose === undefined) return answer(s, dialogueText(s, node));
      const q = args.choose.trim().toLowerCase();
      const option =
        node.options.find((o) => o.id === q) ??
        node.options.find((o) => o.text.toLowerCase() === q) ??
        node.options.find((o) => o.text.toLowerCase().includes(q));
      if (option === undefined)
        return answer(s, `No answer "${args.choose}". ${dialogueText(s, node)}`, true);
      const out = await chooseOption(s.game, option.id, { signal: extra.signal });
      if (out.status === 'node') return answer(s, `You: "${option.text}"\n${dialogueText(s, out.node)}`);
      if (out.status === 'closed') return answer(s, `You: "${option.text}"\nThe conversation ended.`);
      return answer(s, `Answer ${endedText(out)}.`, true);
    },
  );

  server.registerTool(
    'trade',
    {
      title: 'Trade with a player',
      description:
        'The trade in progress (ask with interact verb=trade): `status`; `accept_request` or `decline` an incoming request; `offer` an item (slot, id or name; `quantity`); `offer_coins` (`quantity` coins); `remove` an offered entry (`item` is its trade slot); `accept` the offer screen, then the confirmation screen (both players accept both); `cancel`.',
      inputSchema: {
        action: z.enum([
          'status',
          'accept_request',
          'decline',
          'offer',
          'offer_coins',
          'remove',
          'accept',
          'cancel',
        ]),
        item: z.string().min(1).max(128).optional(),
        quantity: z.number().int().min(0).optional(),
      },
    },
    async (args) => {
      const t = s.trade;
      if (t === undefined) return answer(s, 'No trade is open or asked for.', args.action !== 'status');
      const id = t.tradeId;
      const g = s.game;
      switch (args.action) {
        case 'status':
          break;
        case 'accept_request':
        case 'decline':
          g.tradeRespond(id, args.action === 'accept_request');
          break;
        case 'offer': {
          const slot = findSlot(s, g.world.self?.inventory ?? [], args.item ?? '');
          if (slot === undefined) return answer(s, `You hold no "${args.item ?? ''}".`, true);
          g.tradeAddItem(id, slot, args.quantity);
          break;
        }
        case 'offer_coins':
          g.tradeOfferCoins(id, args.quantity ?? 0);
          break;
        case 'remove':
          g.tradeRemoveItem(id, Number(args.item ?? 0));
          break;
        case 'accept':
          g.tradeAccept(id);
          break;
        case 'cancel':
          g.tradeCancel(id);
          break;
      }
      if (args.action !== 'status') await s.nextNote((k) => k === 'trade', 3000, { fromNow: true });
      return answer(s, tradeText(s));
    },
  );
}

async function openBank(
  s: GameSession,
  timeoutS: number | undefined,
  extra: Extra,
): Promise<string | undefined> {
  const ms = timeoutMs(timeoutS);
  const r = await reachTarget(s, 'bank', 'bank', {
    timeoutMs: ms,
    signal: extra.signal,
    report: new Reporter(extra),
  });
  if ('error' in r) return `No bank to use: ${r.error}`;
  const out = await actOn(s.game, 'bank', r.entity.id, 'bank:update', {
    timeoutMs: ms,
    signal: extra.signal,
  });
  return out.status === 'done' ? undefined : `Opening the bank ${endedText(out)}.`;
}

function tradeText(s: GameSession): string {
  const t = s.trade;
  if (t === undefined) return 'No trade is open now.';
  const offer = (o: typeof t.mine) =>
    o === undefined
      ? 'nothing yet'
      : `${o.items.map((i) => `[${i.tradeSlot}] ${i.quantity} ${s.content.itemName(i.itemId)}`).join(', ') || 'no items'}${
          o.coins > 0 ? ` + ${o.coins} coins` : ''
        }${o.accepted ? ' (accepted)' : ''}`;
  const stage = {
    requested: 'asked, waiting for them',
    incoming: 'they ask you (accept_request or decline)',
    offer: 'offer screen',
    confirm: 'confirmation screen: accept to finish',
  }[t.stage];
  return `Trade ${t.tradeId} with ${t.partnerName}: ${stage}. You offer: ${offer(t.mine)}. They offer: ${offer(t.theirs)}.`;
}
