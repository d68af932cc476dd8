import { z } from 'zod';
import type { ItemStack } from '../../ecs/core/character-state.ts';
import type { DeathLock, Holdings, ItemTransaction, ItemTransactionResult, TradeAuditRow } from '../port.ts';
import { isConstraintViolation, type SqlClient, type SqlTx, withRetry } from '../sql.ts';
import { ignoreQuarantine, type OnQuarantine, readStoredJson } from '../stored-json.ts';
import {
  COINS,
  firstImbalance,
  holdingsMismatch,
  lockCharacters,
  readHoldings,
  TxAbort,
  totals,
  writeHoldings,
} from './holdings.ts';
import { heldForWrite } from './world-locks.ts';

/**
 * Item-moving transactions: lock the characters (sorted ids), check that current holdings are exactly
 * what the simulation believed, write the new holdings and the audit row, commit. Anything else rolls
 * back and comes back as a result value, never a half-applied change.
 */

type Change = { characterId: string; before: Holdings; after: Holdings };

/** Runs `fn` in a retried transaction, turning aborts and database errors into result values. */
async function runTx(db: SqlClient, fn: (tx: SqlTx) => Promise<void>): Promise<ItemTransactionResult> {
  try {
    await withRetry(db, fn);
    return { ok: true };
  } catch (err) {
    if (err instanceof TxAbort) return { ok: false, reason: err.reason, detail: err.detail };
    const detail = err instanceof Error ? err.message : String(err);
    return { ok: false, reason: isConstraintViolation(err) ? 'constraint' : 'error', detail };
  }
}

/** Checks `before` against the database and writes `after`, for each change, in the caller's transaction. */
async function applyChanges(tx: SqlTx, changes: readonly Change[], fenceWorld?: number): Promise<void> {
  if (fenceWorld !== undefined) {
    // Several worlds: only the world holding a character writes its items (docs/scaling.md).
    const ids = changes.map((c) => c.characterId);
    const held = await heldForWrite(tx, fenceWorld, ids);
    const lost = ids.find((id) => !held.has(id));
    if (lost !== undefined) throw new TxAbort('stale', `${lost}: not held by world ${fenceWorld}`);
  }
  await lockCharacters(
    tx,
    changes.map((c) => c.characterId),
  );
  for (const c of changes) {
    const current = await readHoldings(tx, c.characterId, c.before.equipment !== undefined);
    const why = holdingsMismatch(current, c.before);
    if (why) throw new TxAbort('stale', `${c.characterId}: ${why}`);
  }
  for (const c of changes) await writeHoldings(tx, c.characterId, c.after);
}

/** Problems detectable without the database: duplicate characters, equipment given on one side only. */
function shapeProblem(changes: readonly Change[]): string | undefined {
  const ids = new Set(changes.map((c) => c.characterId));
  if (ids.size !== changes.length) return 'a character appears twice in one transaction';
  for (const c of changes) {
    if ((c.before.equipment === undefined) !== (c.after.equipment === undefined)) {
      return `${c.characterId}: equipment given in only one of before/after`;
    }
  }
  return undefined;
}

export async function insertAudit(tx: SqlTx, row: TradeAuditRow): Promise<void> {
  await tx.query(
    `INSERT INTO trade_audit ("tradeId", "initiatorId", "recipientId", "initiatorOffer", "recipientOffer", outcome, reason)
     VALUES ($1, $2, $3, $4::text::jsonb, $5::text::jsonb, $6, $7)`,
    [
      row.tradeId,
      row.initiatorId,
      row.recipientId,
      JSON.stringify(row.initiatorOffer ?? null),
      JSON.stringify(row.recipientOffer ?? null),
      row.outcome,
      row.reason ?? null,
    ],
  );
}

export async function applyItemTransaction(
  db: SqlClient,
  t: ItemTransaction,
  /** A world running with locks: every character changed must be held by it (else 'stale'). */
  fenceWorld?: number,
): Promise<ItemTransactionResult> {
  const shape = shapeProblem(t.changes);
  if (shape) return { ok: false, reason: 'error', detail: shape };
  if (t.conserve) {
    const tally = new Map<string, number>();
    for (const c of t.changes) {
      totals(c.before, tally, 1);
      totals(c.after, tally, -1);
    }
    const imbalance = firstImbalance(tally);
    if (imbalance) return { ok: false, reason: 'not_conserved', detail: imbalance };
  }
  return runTx(db, async (tx) => {
    const fresh = await tx.query(
      'INSERT INTO item_transactions (id, kind) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING RETURNING id',
      [t.id, t.kind],
    );
    if (fresh.length === 0) return; // committed before: a retry is a no-op success
    await applyChanges(tx, t.changes, fenceWorld);
    if (t.audit) await insertAudit(tx, t.audit);
  });
}

export async function createDeathLock(
  db: SqlClient,
  lock: DeathLock,
  fenceWorld?: number,
): Promise<ItemTransactionResult> {
  const change = { characterId: lock.characterId, before: lock.before, after: lock.after };
  const shape = shapeProblem([change]);
  if (shape) return { ok: false, reason: 'error', detail: shape };
  // What leaves the character is exactly what the lock holds.
  const tally = totals(lock.before, new Map(), 1);
  totals(lock.after, tally, -1);
  for (const s of lock.items) tally.set(s.itemId, (tally.get(s.itemId) ?? 0) - s.quantity);
  const imbalance = firstImbalance(tally);
  if (imbalance) return { ok: false, reason: 'not_conserved', detail: imbalance };
  return runTx(db, async (tx) => {
    const fresh = await tx.query(
      `INSERT INTO "playerDeaths" (id, "characterId", "positionX", "positionY", "positionZ", items)
       VALUES ($1, $2, $3, $4, $5, $6::text::jsonb) ON CONFLICT (id) DO NOTHING RETURNING id`,
      [
        lock.id,
        lock.characterId,
        lock.position.x,
        lock.position.y,
        lock.position.z,
        JSON.stringify(lock.items),
      ],
    );
    if (fresh.length === 0) return;
    await applyChanges(tx, [change], fenceWorld);
  });
}

const storedItems: z.ZodType<ItemStack[]> = z.array(
  z.object({ itemId: z.string().min(1), quantity: z.number().int() }),
);

/**
 * The lock's row, held until the transaction ends. Items that cannot be loaded (over the JSON limits, not
 * a list of stacks) leave the lock where it is for an operator: the operation fails and `onQuarantine`
 * is told.
 */
async function lockDeath(
  tx: SqlTx,
  id: string,
  onQuarantine: OnQuarantine,
): Promise<{ characterId: string; items: ItemStack[] }> {
  const [row] = await tx.query<{ characterId: string; items: string }>(
    'SELECT "characterId", items::text AS items FROM "playerDeaths" WHERE id = $1 FOR UPDATE',
    [id],
  );
  if (!row) throw new TxAbort('stale', `no death lock ${id}`);
  const items = readStoredJson(row.items, storedItems);
  if (!items.ok) {
    onQuarantine({ table: 'playerDeaths', column: 'items', row: id, reason: items.reason });
    throw new TxAbort('error', `death lock ${id}: its stored items are ${items.reason}`);
  }
  return { characterId: row.characterId, items: items.value };
}

export async function resolveDeathLock(
  db: SqlClient,
  id: string,
  claims?: Change,
  fenceWorld?: number,
  onQuarantine: OnQuarantine = ignoreQuarantine,
): Promise<ItemTransactionResult> {
  if (claims) {
    const shape = shapeProblem([claims]);
    if (shape) return { ok: false, reason: 'error', detail: shape };
  }
  return runTx(db, async (tx) => {
    const lock = await lockDeath(tx, id, onQuarantine);
    if (claims) {
      // The claimant may gain only what the lock holds, and lose nothing.
      const gain = totals(claims.after, new Map(), 1);
      totals(claims.before, gain, -1);
      const held = new Map<string, number>();
      for (const s of lock.items) held.set(s.itemId, (held.get(s.itemId) ?? 0) + s.quantity);
      for (const [itemId, n] of gain) {
        if (n < 0 || n > (held.get(itemId) ?? 0)) {
          throw new TxAbort(
            'not_conserved',
            `claim of ${n} ${itemId} from a lock holding ${held.get(itemId) ?? 0}`,
          );
        }
      }
      await applyChanges(tx, [claims], fenceWorld);
    }
    await tx.query('DELETE FROM "playerDeaths" WHERE id = $1', [id]);
  });
}

/** Each unresolved lock: its items go to the owner's bank, the lock is deleted; one transaction each. */
export async function recoverDeathLocks(
  db: SqlClient,
  fenceWorld?: number,
  onQuarantine: OnQuarantine = ignoreQuarantine,
): Promise<number> {
  const ids = await db.query<{ id: string }>('SELECT id FROM "playerDeaths" ORDER BY "createdAt", id');
  let recovered = 0;
  for (const { id } of ids) {
    const res = await runTx(db, async (tx) => {
      const lock = await lockDeath(tx, id, onQuarantine);
      if (fenceWorld !== undefined) {
        // Several worlds: a death of a character another (live) world holds is that world's to resolve.
        const other = await tx.query(
          `SELECT 1 FROM "characterLocks" WHERE "characterId" = $1 AND "worldId" <> $2 AND "expiresAt" > now() FOR SHARE`,
          [lock.characterId, fenceWorld],
        );
        if (other.length > 0) throw new TxAbort('stale', `${lock.characterId} is held by another world`);
      }
      await lockCharacters(tx, [lock.characterId]);
      for (const s of lock.items) {
        if (s.quantity <= 0) continue;
        await tx.query(
          `INSERT INTO bank ("characterId", "itemId", quantity, position)
           VALUES ($1, $2, $3, (SELECT coalesce(max(position) + 1, 0) FROM bank WHERE "characterId" = $1))
           ON CONFLICT ("characterId", "itemId") DO UPDATE SET quantity = bank.quantity + EXCLUDED.quantity`,
          [lock.characterId, s.itemId, s.quantity],
        );
      }
      await tx.query('DELETE FROM "playerDeaths" WHERE id = $1', [id]);
    });
    if (res.ok) recovered++;
  }
  return recovered;
}

export { COINS };
