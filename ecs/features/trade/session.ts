import { emit, type GameWorld, type PlayerData } from '../../core/world.ts';
import { freeSlots } from '../inventory/index.ts';
import type { TradeErrorCode, TradeOfferView } from './events.ts';
import { TRADES, type Trade, type TradeSide, tradeIdOf } from './types.ts';

/** Lookups, views and endings shared by the trade commands. */

export function tradeError(
  world: GameWorld,
  to: string,
  tradeId: string | undefined,
  code: TradeErrorCode,
  message: string,
): void {
  emit(world, to, 'tradeError', tradeId === undefined ? { code, message } : { tradeId, code, message });
}

/** The trade and the caller's side of it, or null after sending NOT_FOUND / NOT_PARTICIPANT. */
export function tradeOf(
  world: GameWorld,
  characterId: string,
  tradeId: string,
): { trade: Trade; mine: TradeSide; theirs: TradeSide } | null {
  const trade = world.get(TRADES).byId.get(tradeId);
  if (!trade) {
    tradeError(world, characterId, tradeId, 'NOT_FOUND', 'no such trade');
    return null;
  }
  if (trade.initiator.characterId === characterId) {
    return { trade, mine: trade.initiator, theirs: trade.recipient };
  }
  if (trade.recipient.characterId === characterId) {
    return { trade, mine: trade.recipient, theirs: trade.initiator };
  }
  tradeError(world, characterId, tradeId, 'NOT_PARTICIPANT', 'you are not part of this trade');
  return null;
}

export function offerView(side: TradeSide): TradeOfferView {
  return {
    items: side.items.map((i) => ({ ...i })),
    coins: side.coins,
    accepted: side.accepted,
  };
}

export function offerValue(world: GameWorld, side: TradeSide): number {
  let v = side.coins;
  for (const i of side.items) v += (world.content.items.get(i.itemId)?.value ?? 0) * i.quantity;
  return v;
}

function sides(trade: Trade): [TradeSide, TradeSide][] {
  return [
    [trade.initiator, trade.recipient],
    [trade.recipient, trade.initiator],
  ];
}

function freeOf(world: GameWorld, characterId: string): number {
  const p = world.players.get(characterId);
  return p ? freeSlots(p.state.inventory) : 0;
}

/** Screen 1 state to both players. */
export function sendUpdated(world: GameWorld, trade: Trade): void {
  for (const [me, them] of sides(trade)) {
    if (!world.players.has(me.characterId)) continue;
    emit(world, me.characterId, 'tradeUpdated', {
      tradeId: trade.id,
      myOffer: offerView(me),
      theirOffer: offerView(them),
      partnerFreeSlots: freeOf(world, them.characterId),
    });
  }
}

/** Screen 2 state (with values) to both players. */
export function sendConfirm(world: GameWorld, trade: Trade): void {
  for (const [me, them] of sides(trade)) {
    if (!world.players.has(me.characterId)) continue;
    emit(world, me.characterId, 'tradeConfirmScreen', {
      tradeId: trade.id,
      myOffer: offerView(me),
      theirOffer: offerView(them),
      values: { myOffer: offerValue(world, me), theirOffer: offerValue(world, them) },
    });
  }
}

export function sendScreen(world: GameWorld, trade: Trade): void {
  if (trade.state === 'confirm') sendConfirm(world, trade);
  else sendUpdated(world, trade);
}

export function clearAccepts(trade: Trade): void {
  trade.initiator.accepted = false;
  trade.recipient.accepted = false;
}

export function auditOffer(side: TradeSide): { items: TradeOfferView['items']; coins: number } {
  return { items: side.items.map((i) => ({ ...i })), coins: side.coins };
}

function release(world: GameWorld, trade: Trade): void {
  const table = world.get(TRADES);
  table.byId.delete(trade.id);
  for (const side of [trade.initiator, trade.recipient]) {
    if (table.byCharacter.get(side.characterId) === trade.id) table.byCharacter.delete(side.characterId);
  }
}

/**
 * End a trade that moved nothing: tradeCancelled to both (except `absent`, who disconnected), one audit
 * row (outcome cancelled, or failed when the database refused the swap).
 */
export function endTrade(
  world: GameWorld,
  trade: Trade,
  reason: 'declined' | 'cancelled' | 'expired' | 'disconnected' | 'moved' | 'died' | 'failed',
  absent?: string,
  detail?: string,
): void {
  release(world, trade);
  for (const side of [trade.initiator, trade.recipient]) {
    if (side.characterId === absent || !world.players.has(side.characterId)) continue;
    emit(world, side.characterId, 'tradeCancelled', { tradeId: trade.id, reason });
    if (reason === 'failed') {
      tradeError(world, side.characterId, trade.id, 'FAILED', 'the trade could not be completed');
    }
  }
  world.persist.tradeAudits.push({
    tradeId: trade.id,
    initiatorId: trade.initiator.characterId,
    recipientId: trade.recipient.characterId,
    initiatorOffer: auditOffer(trade.initiator),
    recipientOffer: auditOffer(trade.recipient),
    outcome: reason === 'failed' ? 'failed' : 'cancelled',
    reason: detail === undefined ? reason : `${reason}: ${detail}`,
  });
}

/** Completed: the items moved in the database; only the bookkeeping is left. */
export function finishTrade(world: GameWorld, trade: Trade): void {
  release(world, trade);
}

/** The player's active trade (any state), if any. */
export function activeTrade(world: GameWorld, player: PlayerData): Trade | undefined {
  const id = tradeIdOf(world, player.characterId);
  return id === null ? undefined : world.get(TRADES).byId.get(id);
}
