import type { ItemStack } from '../../core/character-state.ts';
import type { CommandOf } from '../../core/commands.ts';
import type { Holdings } from '../../core/persist-intents.ts';
import { emit, type GameWorld } from '../../core/world.ts';
import {
  addItem,
  COINS,
  holdingsOf,
  mergeStacks,
  nextTxId,
  submitTx,
  takeFromSlot,
} from '../inventory/index.ts';
import {
  auditOffer,
  clearAccepts,
  endTrade,
  finishTrade,
  sendConfirm,
  sendScreen,
  tradeError,
  tradeOf,
} from './session.ts';
import type { Trade, TradeSide } from './types.ts';

/**
 * Accepting and completing. The swap is computed here, in full, from both players' current holdings:
 * every offered slot re-validated, the giver's items taken first (freeing slots), then the partner's
 * offer added (stackables merge). The same computation refuses an accept (INVENTORY_FULL) and builds the
 * one ItemTxRequest the database applies; its `before` is checked there against the stored holdings.
 */

type Swap =
  | { ok: true; after: [Holdings, Holdings]; received: [ItemStack[], ItemStack[]] }
  | { ok: false; code: 'INVENTORY_FULL' | 'INVALID_QUANTITY' | 'UNTRADEABLE'; message: string };

function give(world: GameWorld, side: TradeSide, h: Holdings): string | null {
  for (const offer of side.items) {
    const s = h.inventory[offer.inventorySlot];
    if (!s || s.itemId !== offer.itemId || s.quantity < offer.quantity) return 'an offered item is gone';
    if (!(world.content.items.get(offer.itemId)?.tradeable ?? false)) return 'an offered item is untradeable';
    takeFromSlot(h.inventory, offer.inventorySlot, offer.quantity);
  }
  if (side.coins > h.coins) return 'not enough coins';
  h.coins -= side.coins;
  return null;
}

function receivedFrom(side: TradeSide): ItemStack[] {
  const items = mergeStacks(side.items.map((i) => ({ itemId: i.itemId, quantity: i.quantity })));
  if (side.coins > 0) items.push({ itemId: COINS, quantity: side.coins });
  return items;
}

export function computeSwap(world: GameWorld, trade: Trade): Swap {
  const a = world.players.get(trade.initiator.characterId);
  const b = world.players.get(trade.recipient.characterId);
  if (!a || !b) return { ok: false, code: 'INVALID_QUANTITY', message: 'a player left' };
  const ha = holdingsOf(a);
  const hb = holdingsOf(b);
  const bad = give(world, trade.initiator, ha) ?? give(world, trade.recipient, hb);
  if (bad) return { ok: false, code: 'INVALID_QUANTITY', message: bad };
  const toB = receivedFrom(trade.initiator);
  const toA = receivedFrom(trade.recipient);
  for (const [h, items] of [
    [hb, toB],
    [ha, toA],
  ] as const) {
    for (const s of items) {
      if (!addItem(world.content, h, s.itemId, s.quantity)) {
        return { ok: false, code: 'INVENTORY_FULL', message: 'a player cannot hold the other offer' };
      }
    }
  }
  return { ok: true, after: [ha, hb], received: [toA, toB] };
}

export function handleTradeAccept(world: GameWorld, cmd: CommandOf<'tradeAccept'>): void {
  const found = tradeOf(world, cmd.characterId, cmd.tradeId);
  if (!found) return;
  const { trade, mine, theirs } = found;
  if (trade.state !== 'offer' && trade.state !== 'confirm') {
    tradeError(world, cmd.characterId, trade.id, 'WRONG_STATE', 'nothing to accept now');
    return;
  }
  const swap = computeSwap(world, trade);
  if (!swap.ok) {
    clearAccepts(trade);
    for (const side of [trade.initiator, trade.recipient]) {
      tradeError(world, side.characterId, trade.id, swap.code, swap.message);
    }
    sendScreen(world, trade);
    return;
  }
  mine.accepted = true;
  if (!theirs.accepted) {
    sendScreen(world, trade);
    return;
  }
  if (trade.state === 'offer') {
    trade.state = 'confirm';
    clearAccepts(trade);
    sendConfirm(world, trade);
    return;
  }
  complete(world, trade, swap.after, swap.received);
}

/** Both accepted screen 2: one transaction for the whole swap; both stay locked until its result. */
function complete(
  world: GameWorld,
  trade: Trade,
  after: [Holdings, Holdings],
  received: [ItemStack[], ItemStack[]],
): void {
  const a = world.players.get(trade.initiator.characterId);
  const b = world.players.get(trade.recipient.characterId);
  if (!a || !b) return;
  trade.state = 'completing';
  trade.txId = nextTxId(world);
  submitTx(world, {
    request: {
      id: trade.txId,
      kind: 'trade',
      requesterId: cmdRequester(trade),
      changes: [
        { characterId: a.characterId, before: holdingsOf(a), after: after[0] },
        { characterId: b.characterId, before: holdingsOf(b), after: after[1] },
      ],
      conserve: true,
      audit: {
        tradeId: trade.id,
        initiatorId: a.characterId,
        recipientId: b.characterId,
        initiatorOffer: auditOffer(trade.initiator),
        recipientOffer: auditOffer(trade.recipient),
        outcome: 'completed',
      },
    },
    onResult: (w, ok, reason) => {
      if (!ok) {
        endTrade(w, trade, 'failed', undefined, reason ?? 'transaction failed');
        return;
      }
      finishTrade(w, trade);
      const [toA, toB] = received;
      if (w.players.has(a.characterId)) {
        emit(w, a.characterId, 'tradeCompleted', { tradeId: trade.id, receivedItems: toA });
      }
      if (w.players.has(b.characterId)) {
        emit(w, b.characterId, 'tradeCompleted', { tradeId: trade.id, receivedItems: toB });
      }
    },
  });
}

/** The initiator receives the txResult (any participant would do; the result is applied to both). */
function cmdRequester(trade: Trade): string {
  return trade.initiator.characterId;
}
