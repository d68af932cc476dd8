import { isDeepStrictEqual } from 'node:util';
import type { CharacterState, ItemStack } from '../../ecs/core/character-state.ts';
import type { Holdings, ItemTxRequest, PersistOutbox } from '../../ecs/core/persist-intents.ts';

/**
 * An in-memory stand-in for the persistence adapter's item rules, strict where the real one is: a
 * transaction whose `before` is not exactly the stored holdings is refused as stale; a conserving one
 * must keep every item id's total. One tick's outbox is taken in the documented order: death locks
 * (each after its settling save when it asks for one), then snapshots, then transactions (queued until
 * `commit`).
 */

export type Outcome = { ok: true } | { ok: false; reason: string };

export class FakeItemDb {
  readonly chars = new Map<string, CharacterState>();
  readonly locks = new Map<string, { characterId: string; items: ItemStack[] }>();
  readonly queued: ItemTxRequest[] = [];
  readonly audits: PersistOutbox['tradeAudits'] = [];
  /** Problems a correct simulation never causes (stale death locks, over-claimed locks). */
  readonly violations: string[] = [];

  create(state: CharacterState): void {
    this.chars.set(state.id, structuredClone(state));
  }

  load(id: string): CharacterState {
    const c = this.chars.get(id);
    if (!c) throw new Error(`no character ${id}`);
    return structuredClone(c);
  }

  /** Take one tick's outbox. `snapshotOf` gives the current state of an online character. */
  take(outbox: PersistOutbox, snapshotOf: (id: string) => CharacterState | undefined): void {
    for (const lock of outbox.deathLocks) {
      const c = this.chars.get(lock.characterId);
      // Items changed in the death's tick: saved (like a snapshot: not the bank) before the lock.
      if (c && lock.settleFirst) this.write(c, { ...lock.before, bank: c.bank });
      if (!c || !this.matches(c, lock.before)) {
        this.violations.push(`stale death lock ${lock.id}`);
        continue;
      }
      this.write(c, lock.after);
      this.locks.set(lock.id, { characterId: lock.characterId, items: structuredClone(lock.items) });
    }
    for (const id of new Set([...outbox.itemsChanged, ...outbox.dirty])) {
      const snap = snapshotOf(id);
      if (snap) this.saveSnapshot(snap);
    }
    for (const snap of outbox.left) this.saveSnapshot(snap);
    this.queued.push(...outbox.transactions);
    this.audits.push(...outbox.tradeAudits);
  }

  /** Like saveCharacters: everything but the bank. */
  private saveSnapshot(snap: CharacterState): void {
    const c = this.chars.get(snap.id);
    if (!c) return;
    this.chars.set(snap.id, { ...structuredClone(snap), bank: c.bank });
  }

  private matches(c: CharacterState, h: Holdings): boolean {
    return (
      isDeepStrictEqual(c.inventory, h.inventory) &&
      c.coins === h.coins &&
      isDeepStrictEqual(c.bank, h.bank) &&
      (h.equipment === undefined || isDeepStrictEqual(c.equipment, h.equipment))
    );
  }

  private write(c: CharacterState, h: Holdings): void {
    c.inventory = structuredClone(h.inventory);
    c.coins = h.coins;
    c.bank = structuredClone(h.bank);
    if (h.equipment) c.equipment = structuredClone(h.equipment);
  }

  /** Apply a queued transaction all-or-nothing (or refuse it on purpose with `fail`). */
  commit(tx: ItemTxRequest, fail = false): Outcome {
    this.queued.splice(this.queued.indexOf(tx), 1);
    if (fail) return { ok: false, reason: 'error' };
    for (const ch of tx.changes) {
      const c = this.chars.get(ch.characterId);
      if (!c || !this.matches(c, ch.before)) return { ok: false, reason: 'stale' };
    }
    if (tx.conserve) {
      const before = new Map<string, number>();
      const after = new Map<string, number>();
      for (const ch of tx.changes) {
        addTotals(before, ch.before);
        addTotals(after, ch.after);
      }
      if (!isDeepStrictEqual(sorted(before), sorted(after))) return { ok: false, reason: 'not_conserved' };
    }
    if (tx.deathLock) {
      const lock = this.locks.get(tx.deathLock.id);
      if (!lock || !isDeepStrictEqual(sorted(tally(lock.items)), sorted(tally(tx.deathLock.items)))) {
        this.violations.push(`lock ${tx.deathLock.id} does not hold what ${tx.id} claims`);
        return { ok: false, reason: 'constraint' };
      }
      this.locks.delete(tx.deathLock.id);
    }
    for (const ch of tx.changes) this.write(this.chars.get(ch.characterId) as CharacterState, ch.after);
    if (tx.audit) this.audits.push(tx.audit);
    return { ok: true };
  }

  /** Totals of everything stored: characters (inventory, equipment, bank, coins) and death locks. */
  totals(): Map<string, number> {
    const m = new Map<string, number>();
    for (const c of this.chars.values()) addTotals(m, c);
    for (const l of this.locks.values()) for (const s of l.items) add(m, s.itemId, s.quantity);
    return m;
  }
}

function add(m: Map<string, number>, id: string, q: number): void {
  m.set(id, (m.get(id) ?? 0) + q);
}

export function addTotals(
  m: Map<string, number>,
  h: {
    inventory: (ItemStack | null)[];
    coins: number;
    bank: ItemStack[];
    equipment?: CharacterState['equipment'];
  },
): void {
  for (const s of h.inventory) if (s) add(m, s.itemId, s.quantity);
  for (const s of h.bank) add(m, s.itemId, s.quantity);
  for (const s of Object.values(h.equipment ?? {})) if (s) add(m, s.itemId, s.quantity);
  if (h.coins) add(m, 'coins', h.coins);
}

export function sorted(m: Map<string, number>): [string, number][] {
  return [...m.entries()].filter(([, v]) => v !== 0).sort(([a], [b]) => (a < b ? -1 : 1));
}

function tally(items: ItemStack[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const s of items) add(m, s.itemId, s.quantity);
  return m;
}
