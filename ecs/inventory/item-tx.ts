import type { CharacterState } from '../character-state.ts';
import type { CommandOf } from '../commands.ts';
import type { Holdings, ItemTxRequest } from '../persist-intents.ts';
import { itemsChanged } from '../players.ts';
import type { GameWorld, PlayerData } from '../world.ts';

/**
 * Item transactions in flight (bank, trade completion, death-lock pickups). The simulation asks
 * persistence for one ItemTxRequest, locks every player it touches (pendingTx) and applies the outcome
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
  /** Online characters whose save was deferred while locked. */
  deferred: Set<string>;
}

const tables = new WeakMap<GameWorld, TxTable>();

function table(world: GameWorld): TxTable {
  let t = tables.get(world);
  if (!t) {
    t = { pending: new Map(), limbo: new Map(), deferred: new Set() };
    tables.set(world, t);
  }
  return t;
}

export function holdingsOf(player: PlayerData, withEquipment = false): Holdings {
  const s = player.state;
  const h: Holdings = {
    inventory: structuredClone(s.inventory),
    coins: s.coins,
    bank: structuredClone(s.bank),
  };
  if (withEquipment) h.equipment = structuredClone(s.equipment);
  return h;
}

function applyHoldings(state: CharacterState, h: Holdings): void {
  state.inventory = structuredClone(h.inventory);
  state.coins = h.coins;
  state.bank = structuredClone(h.bank);
  if (h.equipment) state.equipment = structuredClone(h.equipment);
}

export function nextTxId(world: GameWorld): string {
  world.counters.tx += 1;
  return `tx-${world.counters.tx}`;
}

/** Hand a transaction to persistence and lock every online player it changes. */
export function submitTx(world: GameWorld, pending: PendingTx): void {
  const t = table(world);
  t.pending.set(pending.request.id, { ...pending, submittedTick: world.tick });
  world.persist.transactions.push(pending.request);
  for (const ch of pending.request.changes) {
    const p = world.players.get(ch.characterId);
    if (p) p.pendingTx += 1;
  }
}

/** Transactions in flight (for tests and the conservation check). */
export function pendingTransactions(world: GameWorld): readonly PendingTx[] {
  return [...table(world).pending.values()];
}

/** True while a character that left still waits for a transaction outcome. */
export function inLimbo(world: GameWorld, characterId: string): boolean {
  return table(world).limbo.has(characterId);
}

function stillPending(t: TxTable, characterId: string): boolean {
  for (const p of t.pending.values()) {
    if (p.request.changes.some((c) => c.characterId === characterId)) return true;
  }
  return false;
}

/** The `txResult` command. Unknown ids (a retry of a settled transaction) are ignored. */
export function handleTxResult(world: GameWorld, cmd: CommandOf<'txResult'>): void {
  const t = table(world);
  const pending = t.pending.get(cmd.txId);
  if (!pending) return;
  t.pending.delete(cmd.txId);
  for (const ch of pending.request.changes) {
    const outcome = cmd.ok ? ch.after : ch.before;
    const p = world.players.get(ch.characterId);
    if (p) {
      applyHoldings(p.state, outcome);
      p.pendingTx = Math.max(0, p.pendingTx - 1);
      itemsChanged(world, p);
      t.deferred.delete(ch.characterId);
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

/** LEAVE_HOOK: a player leaving with a transaction in flight goes to limbo (see the file comment). */
export function txLeaveHook(world: GameWorld, player: PlayerData): void {
  if (player.pendingTx > 0) table(world).limbo.set(player.characterId, null);
}

/**
 * The last system of the tick: defer saves of locked characters, hold back final snapshots of those in
 * limbo, and lock characters that came back while their transaction is still in flight.
 */
export function txSaveGuard(world: GameWorld): void {
  const t = table(world);
  if (t.limbo.size > 0) {
    world.persist.left = world.persist.left.filter((snap) => {
      if (!t.limbo.has(snap.id)) return true;
      t.limbo.set(snap.id, snap);
      return false;
    });
    for (const id of t.limbo.keys()) {
      const back = world.players.get(id);
      if (!back) continue;
      let n = 0;
      for (const p of t.pending.values()) if (p.request.changes.some((c) => c.characterId === id)) n++;
      back.pendingTx = n;
      t.limbo.delete(id);
    }
  }
  if (t.pending.size === 0) return;
  const olderThanThisTick = new Set<string>();
  for (const p of t.pending.values()) {
    if ((p.submittedTick ?? 0) >= world.tick) continue;
    for (const c of p.request.changes) olderThanThisTick.add(c.characterId);
  }
  for (const id of olderThanThisTick) {
    if (!world.players.has(id)) continue;
    if (world.persist.itemsChanged.delete(id) || world.persist.dirty.delete(id)) t.deferred.add(id);
    world.persist.dirty.delete(id);
  }
}
