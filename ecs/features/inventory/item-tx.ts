import type { CharacterState, ItemStack } from '../../core/character-state.ts';
import type { CommandOf } from '../../core/commands.ts';
import { defineState, type ItemLock } from '../../core/feature.ts';
import type { Holdings, ItemTxRequest } from '../../core/persist-intents.ts';
import { itemsChanged } from '../../core/players.ts';
import type { GameWorld, PlayerData } from '../../core/world.ts';

/**
 * Item transactions in flight (bank, trade completion, death-lock pickups). The simulation asks
 * persistence for one ItemTxRequest, locks every player it touches (txInFlight) and applies the outcome
 * when the `txResult` command returns: `after` on success, `before` on failure. Outcomes are therefore
 * never shown before the database committed them (contract §5).
 *
 * Snapshots are the danger: a save of a character taken while its transaction is in flight carries the
 * `before` holdings and, written after the commit, would undo it (a duplication). Persistence handles
 * one tick's outbox in this order: deathLocks, then snapshots (itemsChanged/dirty/left), then
 * transactions; so a snapshot of the tick a transaction was asked for is its `before` and lands first.
 * From the next tick on, while the transaction is in flight (txSaveGuard, the last system of the tick):
 *  - it is taken out of this tick's itemsChanged/dirty sets and saved again once the outcome is applied;
 *  - if it left the world, its final snapshot is held back ("limbo") and handed to persistence only
 *    after the outcome, with the committed holdings;
 *  - if it comes back before the outcome, it stays locked and the outcome overwrites the holdings it
 *    was loaded with (which may be from either side of the commit).
 */

export interface PendingTx {
  request: ItemTxRequest;
  /** Set by submitTx. */
  submittedTick?: number;
  /** Feature-specific follow-up (events), after the holdings were applied to the online players. */
  onResult(world: GameWorld, ok: boolean, reason: string | undefined): void;
}

interface TxTable {
  pending: Map<string, PendingTx>;
  /** Characters that left with a transaction in flight: their held-back final snapshot. */
  limbo: Map<string, CharacterState | null>;
  /** Prefix of this world's transaction ids (see nextTxId). */
  epoch: string | null;
  /** Per character: transactions in flight and the tick the oldest was asked for. */
  inFlight: Map<string, { count: number; since: number }>;
  /** Transaction and death-lock ids made so far. */
  made: number;
}

export const ITEM_TX = defineState<TxTable>('itemTx', () => ({
  pending: new Map(),
  limbo: new Map(),
  inFlight: new Map(),
  epoch: null,
  made: 0,
}));

const table = (world: GameWorld): TxTable => world.get(ITEM_TX);

const copyStack = (s: ItemStack): ItemStack => ({ itemId: s.itemId, quantity: s.quantity });

function copyEquipment(e: CharacterState['equipment']): CharacterState['equipment'] {
  const out: CharacterState['equipment'] = {};
  for (const k in e) {
    const s = e[k as keyof typeof e];
    if (s) out[k as keyof typeof e] = copyStack(s);
  }
  return out;
}

/** A deep copy of a player's holdings (by hand: structuredClone is ~10x slower on the trade hot path). */
export function holdingsOf(player: PlayerData, withEquipment = false): Holdings {
  return copyHoldings(player.state, withEquipment);
}

export function copyHoldings(
  s: Pick<CharacterState, 'inventory' | 'coins' | 'bank' | 'equipment'> | Holdings,
  withEquipment = s.equipment !== undefined,
): Holdings {
  const h: Holdings = {
    inventory: s.inventory.map((x) => (x ? copyStack(x) : null)),
    coins: s.coins,
    bank: s.bank.map(copyStack),
  };
  if (withEquipment && s.equipment) h.equipment = copyEquipment(s.equipment);
  return h;
}

function applyHoldings(state: CharacterState, h: Holdings): void {
  const c = copyHoldings(h);
  state.inventory = c.inventory;
  state.coins = c.coins;
  state.bank = c.bank;
  if (c.equipment) state.equipment = c.equipment;
}

/**
 * A transaction or death-lock id, unique across restarts: persistence keeps committed ids as idempotency
 * keys (a repeated id is a no-op success) and death-lock ids as keys, so `tx-7` of the previous run
 * must never be reused. The epoch is the wall clock (world.nowMs, base 36) of the first id this world
 * makes; the tick loop supplies epoch milliseconds, so each boot has its own.
 */
export function nextTxId(world: GameWorld, kind: 'tx' | 'death' = 'tx'): string {
  const t = table(world);
  if (t.epoch === null) t.epoch = Math.floor(world.nowMs).toString(36);
  t.made += 1;
  return `${kind}-${t.epoch}-${t.made}`;
}

/** Hand a transaction to persistence and lock every online player it changes. */
export function submitTx(world: GameWorld, pending: PendingTx): void {
  const t = table(world);
  t.pending.set(pending.request.id, { ...pending, submittedTick: world.tick });
  world.persist.transactions.push(pending.request);
  for (const ch of pending.request.changes) {
    const f = t.inFlight.get(ch.characterId);
    if (f) f.count += 1;
    else t.inFlight.set(ch.characterId, { count: 1, since: world.tick });
  }
}

/** Transactions in flight (for tests and the conservation check). */
export function pendingTransactions(world: GameWorld): readonly PendingTx[] {
  return [...table(world).pending.values()];
}

/**
 * True while a transaction that changes this character is in flight (online or not): its items and
 * coins are locked until the outcome is applied.
 */
export function txInFlight(world: GameWorld, characterId: string): boolean {
  return table(world).inFlight.has(characterId);
}

function stillPending(t: TxTable, characterId: string): boolean {
  return t.inFlight.has(characterId);
}

function settled(t: TxTable, characterId: string): void {
  const f = t.inFlight.get(characterId);
  if (!f) return;
  f.count -= 1;
  if (f.count > 0) return;
  t.inFlight.delete(characterId);
}

/** The `txResult` command. Unknown ids (a retry of a settled transaction) are ignored. */
export function handleTxResult(world: GameWorld, cmd: CommandOf<'txResult'>): void {
  const t = table(world);
  const pending = t.pending.get(cmd.txId);
  if (!pending) return;
  t.pending.delete(cmd.txId);
  for (const ch of pending.request.changes) settled(t, ch.characterId);
  for (const ch of pending.request.changes) {
    const outcome = cmd.ok ? ch.after : ch.before;
    const p = world.players.get(ch.characterId);
    if (p) {
      applyHoldings(p.state, outcome);
      itemsChanged(world, p);
      continue;
    }
    if (!t.limbo.has(ch.characterId)) continue;
    const held = t.limbo.get(ch.characterId);
    // Left this very tick: the final snapshot is still in this tick's outbox, not yet held back.
    const snapshot = held ?? world.persist.left.find((s) => s.id === ch.characterId);
    if (snapshot) applyHoldings(snapshot, outcome);
    if (!stillPending(t, ch.characterId)) {
      t.limbo.delete(ch.characterId);
      if (held) world.persist.left.push(held);
    }
  }
  pending.onResult(world, cmd.ok, cmd.reason);
}

/** Leave reaction: a player leaving with a transaction in flight goes to limbo (see the file comment). */
export function txLeaveHook(world: GameWorld, player: PlayerData): void {
  if (txInFlight(world, player.characterId)) table(world).limbo.set(player.characterId, null);
}

/** itemsLocked reaction: BUSY while a transaction that changes the player is in flight. */
export function txLock(world: GameWorld, player: PlayerData): ItemLock | null {
  return txInFlight(world, player.characterId)
    ? { code: 'BUSY', message: 'an item transaction is still in progress' }
    : null;
}

/**
 * The last system of the tick: defer saves of locked characters, hold back final snapshots of those in
 * limbo; characters that came back while their transaction is in flight stay locked (txInFlight).
 */
export function txSaveGuard(world: GameWorld): void {
  const t = table(world);
  if (t.limbo.size > 0) {
    world.persist.left = world.persist.left.filter((snap) => {
      if (!t.limbo.has(snap.id)) return true;
      t.limbo.set(snap.id, snap);
      return false;
    });
    for (const id of t.limbo.keys()) if (world.players.has(id)) t.limbo.delete(id);
  }
  for (const [id, f] of t.inFlight) {
    if (f.since >= world.tick) continue;
    if (!world.players.has(id)) continue;
    // Saved again (itemsChanged) when the outcome is applied.
    world.persist.itemsChanged.delete(id);
    world.persist.dirty.delete(id);
  }
}
