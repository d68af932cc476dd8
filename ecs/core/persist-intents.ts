import type { CharacterState, ItemStack, Position } from './character-state.ts';

/**
 * What the simulation asks of persistence after a tick. The tick loop (src/) hands these to the save
 * scheduler; results of item transactions come back as `txResult` commands. These shapes are the one
 * source: persistence/port.ts takes its transaction, audit and death lock types from here.
 */

/** Everything one character holds that an item transaction may change. */
export interface Holdings {
  inventory: (ItemStack | null)[];
  coins: number;
  bank: ItemStack[];
  /** Omitted: the transaction neither checks nor changes equipment. */
  equipment?: CharacterState['equipment'];
}

/** What an item transaction is for (the `kind` column of item_transactions). */
export const ITEM_TX_KINDS = [
  'trade',
  'bank_deposit',
  'bank_withdraw',
  'shop_buy',
  'shop_sell',
  'death',
  'admin',
  'equip',
] as const;
export type ItemTxKind = (typeof ITEM_TX_KINDS)[number];

/** A trade's audit row, written with the trade's transaction or alone when the trade moved nothing. */
export interface TradeAudit {
  tradeId: string;
  initiatorId: string;
  recipientId: string;
  initiatorOffer: unknown;
  recipientOffer: unknown;
  outcome: 'completed' | 'cancelled' | 'failed';
  reason?: string;
}

export interface ItemTxRequest {
  /** Idempotency key: a retried transaction whose id was already committed is a no-op success. */
  id: string;
  kind: ItemTxKind;
  /** Character who asked (receives the txResult command). */
  requesterId: string;
  changes: { characterId: string; before: Holdings; after: Holdings }[];
  /** True: the database layer also checks, per itemId and for coins, that sum(before) == sum(after). */
  conserve: boolean;
  /**
   * Resolves death lock `id` (which holds exactly `items`): a death-dropped stack picked up, with the
   * picker's change in `changes` (resolveDeathLock(id, changes[0])), or despawned, with `changes` empty
   * (resolveDeathLock(id)). kind is 'death', conserve false.
   */
  deathLock?: { id: string; items: ItemStack[] };
  /** Written in the same database transaction. */
  audit?: TradeAudit;
}

export interface DeathLockRequest {
  id: string;
  characterId: string;
  position: Position;
  items: ItemStack[];
  before: Holdings;
  after: Holdings;
  /**
   * The character's items changed earlier in the tick of its death, so the database does not hold
   * `before` yet (the tick's snapshots are handed over after its death locks). Persistence first saves
   * the character with `before` as its holdings, in the same lane, then writes this lock. Set on the
   * first lock of such a death only: the others chain from it.
   */
  settleFirst?: true;
}

export interface PersistOutbox {
  /** Characters whose items or coins changed this tick: committed within one tick. */
  itemsChanged: Set<string>;
  /** Characters whose position, xp or health changed: saved every SAVE_INTERVAL. */
  dirty: Set<string>;
  /** Final snapshots of characters that left this tick: saved now. */
  left: CharacterState[];
  transactions: ItemTxRequest[];
  deathLocks: DeathLockRequest[];
  /** Trades that ended without moving items still leave an audit row. */
  tradeAudits: TradeAudit[];
}

export function emptyOutbox(): PersistOutbox {
  return {
    itemsChanged: new Set(),
    dirty: new Set(),
    left: [],
    transactions: [],
    deathLocks: [],
    tradeAudits: [],
  };
}
