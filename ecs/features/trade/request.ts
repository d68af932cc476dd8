import type { CommandOf } from '../../core/commands.ts';
import type { ItemLock } from '../../core/feature.ts';
import { playerCombatLevel } from '../../core/players.ts';
import { inViewOf, itemLockOf } from '../../core/reactions.ts';
import { emit, emitError, type GameWorld, type PlayerData, ticksFor } from '../../core/world.ts';
import { txInFlight } from '../inventory/index.ts';
import { activeTrade, endTrade, tradeError, tradeOf } from './session.ts';
import { TRADE_RANGE, TRADE_REQUEST_SECONDS, TRADES, type Trade, tradeIdOf } from './types.ts';

/** Starting and ending trades: request, respond, cancel, expiry and the move/leave/death endings. */

export function chebyshev(world: GameWorld, a: number, b: number): number {
  const p = world.c.Position;
  return Math.max(
    Math.abs((p.x[a] as number) - (p.x[b] as number)),
    Math.abs((p.z[a] as number) - (p.z[b] as number)),
  );
}

/** A transaction in flight, or another interface holding the items (an open shop). */
function busyWithItems(world: GameWorld, p: PlayerData): boolean {
  return txInFlight(world, p.characterId) || itemLockOf(world, p) !== null;
}

/**
 * `tradeRequest`. The target is a character id; the simulation only knows who is online, so an id of
 * no player in the world is TARGET_OFFLINE (net may answer NOT_FOUND earlier for ids that exist nowhere).
 * A player online but out of the requester's view is NOT_FOUND, checked before anything about it (busy,
 * too far), so a request tells nothing of where it is.
 */
export function handleTradeRequest(world: GameWorld, cmd: CommandOf<'tradeRequest'>): void {
  const me = world.players.get(cmd.characterId);
  if (!me) return;
  const to = cmd.targetPlayerId;
  if (to === me.characterId) {
    tradeError(world, me.characterId, undefined, 'SELF_TRADE', 'you cannot trade yourself');
    return;
  }
  const target = world.players.get(to);
  if (!target) {
    tradeError(world, me.characterId, undefined, 'TARGET_OFFLINE', 'that player is not online');
    return;
  }
  if (!inViewOf(world, me, target.eid)) {
    tradeError(world, me.characterId, undefined, 'NOT_FOUND', 'there is no such player in view');
    return;
  }
  // An open interface (a shop) holds the requester's items: INTERFACE_BLOCKED, as for any item change.
  const lock = tradeIdOf(world, me.characterId) === null ? itemLockOf(world, me) : null;
  if (lock?.code === 'INTERFACE_BLOCKED') {
    emitError(world, me.characterId, lock.code, lock.message, cmd.origin);
    return;
  }
  if (tradeIdOf(world, me.characterId) !== null || busyWithItems(world, me)) {
    tradeError(world, me.characterId, undefined, 'PLAYER_BUSY', 'you are already in a trade');
    return;
  }
  if (tradeIdOf(world, target.characterId) !== null || busyWithItems(world, target)) {
    tradeError(world, me.characterId, undefined, 'PLAYER_BUSY', 'that player is busy');
    return;
  }
  if (chebyshev(world, me.eid, target.eid) > TRADE_RANGE) {
    tradeError(world, me.characterId, undefined, 'TOO_FAR', 'stand within 2 tiles to trade');
    return;
  }
  const table = world.get(TRADES);
  table.made += 1;
  const trade: Trade = {
    id: `trade-${table.made}`,
    state: 'requested',
    requestedTick: world.tick,
    initiator: { characterId: me.characterId, items: [], coins: 0, accepted: false },
    recipient: { characterId: target.characterId, items: [], coins: 0, accepted: false },
    txId: null,
  };
  table.byId.set(trade.id, trade);
  table.byCharacter.set(me.characterId, trade.id);
  table.byCharacter.set(target.characterId, trade.id);
  emit(world, target.characterId, 'tradeIncoming', {
    tradeId: trade.id,
    fromPlayerId: me.characterId,
    fromPlayerName: me.state.name,
    fromPlayerLevel: playerCombatLevel(me),
  });
}

/** `tradeRequestRespond`: only the recipient answers, only while requested. */
export function handleTradeRespond(world: GameWorld, cmd: CommandOf<'tradeRespond'>): void {
  const found = tradeOf(world, cmd.characterId, cmd.tradeId);
  if (!found) return;
  const { trade } = found;
  if (trade.state !== 'requested' || trade.recipient.characterId !== cmd.characterId) {
    tradeError(world, cmd.characterId, trade.id, 'WRONG_STATE', 'there is no request to answer');
    return;
  }
  if (!cmd.accept) {
    endTrade(world, trade, 'declined');
    return;
  }
  const a = world.players.get(trade.initiator.characterId);
  const b = world.players.get(trade.recipient.characterId);
  if (!a || !b) {
    endTrade(world, trade, 'disconnected');
    return;
  }
  // A bank transaction still in flight would change an inventory under the offer: answer later.
  if (busyWithItems(world, a) || busyWithItems(world, b)) {
    tradeError(world, cmd.characterId, trade.id, 'PLAYER_BUSY', 'an item transaction is in progress');
    return;
  }
  trade.state = 'offer';
  for (const [me, them] of [
    [a, b],
    [b, a],
  ] as const) {
    emit(world, me.characterId, 'tradeStarted', {
      tradeId: trade.id,
      partnerId: them.characterId,
      partnerName: them.state.name,
      partnerLevel: playerCombatLevel(them),
      partnerFreeSlots: freeSlotsOf(them),
    });
  }
}

function freeSlotsOf(p: PlayerData): number {
  return p.state.inventory.filter((s) => s === null).length;
}

/** `tradeCancel`: either side, in any state but while the swap is in the database. */
export function handleTradeCancel(world: GameWorld, cmd: CommandOf<'tradeCancel'>): void {
  const found = tradeOf(world, cmd.characterId, cmd.tradeId);
  if (!found) return;
  if (found.trade.state === 'completing') {
    tradeError(world, cmd.characterId, found.trade.id, 'WRONG_STATE', 'the trade is completing');
    return;
  }
  endTrade(world, found.trade, 'cancelled');
}

/** System: unanswered requests expire after 30 s. */
export function tradeExpirySystem(world: GameWorld): void {
  const trades = world.get(TRADES).byId;
  if (trades.size === 0) return;
  const ttl = ticksFor(world, TRADE_REQUEST_SECONDS);
  for (const trade of [...trades.values()]) {
    if (trade.state === 'requested' && world.tick - trade.requestedTick >= ttl)
      endTrade(world, trade, 'expired');
  }
}

/** Move reaction: a move during an open trade (screens 1 and 2) cancels it. */
export function tradeMoveHook(world: GameWorld, player: PlayerData): void {
  const trade = activeTrade(world, player);
  if (trade && (trade.state === 'offer' || trade.state === 'confirm')) endTrade(world, trade, 'moved');
}

/**
 * Leave reaction: the partner is told `disconnected`. A trade already completing is left to its
 * transaction: the outcome still applies (item-tx.ts holds the leaver's final snapshot back until then),
 * and the leaver, should it come back meanwhile, is in no trade (only the transaction's BUSY lock).
 */
export function tradeLeaveHook(world: GameWorld, player: PlayerData): void {
  const trade = activeTrade(world, player);
  if (trade && trade.state !== 'completing') endTrade(world, trade, 'disconnected', player.characterId);
  world.get(TRADES).byCharacter.delete(player.characterId);
}

/** itemsLocked reaction: from the accepted request to its end, the trade screens hold the items. */
export function tradeLock(world: GameWorld, player: PlayerData): ItemLock | null {
  const trade = activeTrade(world, player);
  return trade && trade.state !== 'requested'
    ? { code: 'INTERFACE_BLOCKED', message: 'finish or cancel your trade first' }
    : null;
}

/** Death reaction: before the items drop. */
export function tradeDeathHook(world: GameWorld, player: PlayerData): void {
  const trade = activeTrade(world, player);
  if (trade && trade.state !== 'completing') endTrade(world, trade, 'died');
}
