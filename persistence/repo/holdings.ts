import { INVENTORY_SLOTS, type ItemStack } from '../../ecs/core/character-state.ts';
import type { Holdings } from '../port.ts';
import type { SqlTx } from '../sql.ts';
import {
  bankRows,
  equipmentRows,
  inventoryRows,
  toBank,
  toEquipment,
  toInventory,
} from './character-rows.ts';

/**
 * Reading, comparing, counting and writing a character's holdings inside an item transaction.
 * The coins column counts as the item id `coins`, so coin stacks and the coins field conserve together.
 */

export const COINS = 'coins';

/** Thrown inside a transaction to roll it back with a result value. */
export class TxAbort extends Error {
  constructor(
    readonly reason: 'stale' | 'not_conserved' | 'constraint' | 'error',
    readonly detail: string,
  ) {
    super(`${reason}: ${detail}`);
  }
}

/** Locks the characters' rows in id order (every writer does: no deadlock). Missing ones: stale. */
export async function lockCharacters(tx: SqlTx, ids: readonly string[]): Promise<void> {
  const sorted = [...new Set(ids)].sort();
  const rows = await tx.query<{ id: string }>(
    'SELECT id FROM characters WHERE id IN (SELECT jsonb_array_elements_text($1::text::jsonb)) ORDER BY id FOR UPDATE',
    [JSON.stringify(sorted)],
  );
  if (rows.length !== sorted.length) {
    const found = new Set(rows.map((r) => r.id));
    throw new TxAbort('stale', `character ${sorted.find((id) => !found.has(id))} does not exist`);
  }
}

export async function readHoldings(
  tx: SqlTx,
  characterId: string,
  withEquipment: boolean,
): Promise<Holdings> {
  const [c] = await tx.query<{ coins: number }>('SELECT coins FROM characters WHERE id = $1', [characterId]);
  const inv = await tx.query<{ slot: number; itemId: string; quantity: number }>(
    'SELECT slot, "itemId", quantity FROM inventory WHERE "characterId" = $1',
    [characterId],
  );
  const bank = await tx.query<{ itemId: string; quantity: number; position: number }>(
    'SELECT "itemId", quantity, position FROM bank WHERE "characterId" = $1',
    [characterId],
  );
  const h: Holdings = { inventory: toInventory(inv), coins: c?.coins ?? 0, bank: toBank(bank) };
  if (withEquipment) {
    const eq = await tx.query<{ slotType: string; itemId: string; quantity: number }>(
      'SELECT "slotType", "itemId", quantity FROM equipment WHERE "characterId" = $1',
      [characterId],
    );
    h.equipment = toEquipment(eq);
  }
  return h;
}

const sameStack = (a: ItemStack | null | undefined, b: ItemStack | null | undefined) =>
  (a ?? null) === null ? (b ?? null) === null : !!b && a?.itemId === b.itemId && a?.quantity === b.quantity;

function stackMap(stacks: Iterable<ItemStack | null | undefined>): Map<string, number> {
  const m = new Map<string, number>();
  for (const s of stacks) if (s) m.set(s.itemId, (m.get(s.itemId) ?? 0) + s.quantity);
  return m;
}

function sameMap(a: Map<string, number>, b: Map<string, number>): boolean {
  if (a.size !== b.size) return false;
  for (const [k, v] of a) if (b.get(k) !== v) return false;
  return true;
}

/** Why `current` differs from what the caller believed (`expected`), or undefined when equal. */
export function holdingsMismatch(current: Holdings, expected: Holdings): string | undefined {
  if (expected.inventory.length !== INVENTORY_SLOTS) return `inventory must have ${INVENTORY_SLOTS} slots`;
  for (let slot = 0; slot < INVENTORY_SLOTS; slot++) {
    if (!sameStack(current.inventory[slot], expected.inventory[slot]))
      return `inventory slot ${slot} differs`;
  }
  if (current.coins !== expected.coins) return `coins differ (${current.coins} != ${expected.coins})`;
  // Bank order is display only (rearranging is not an item move): compare contents.
  if (!sameMap(stackMap(current.bank), stackMap(expected.bank))) return 'bank differs';
  if (
    expected.equipment &&
    !sameMap(stackMap(Object.values(current.equipment ?? {})), stackMap(Object.values(expected.equipment)))
  ) {
    return 'equipment differs';
  }
  if (expected.equipment) {
    for (const [slot, stack] of Object.entries(expected.equipment)) {
      if (!sameStack(current.equipment?.[slot as keyof Holdings['equipment']], stack))
        return `equipment ${slot} differs`;
    }
  }
  return undefined;
}

/** Quantity of every item id (coins included) across inventory, bank and, when given, equipment. */
export function totals(h: Holdings, into = new Map<string, number>(), sign = 1): Map<string, number> {
  const add = (id: string, n: number) => into.set(id, (into.get(id) ?? 0) + sign * n);
  for (const s of h.inventory) if (s) add(s.itemId, s.quantity);
  for (const s of h.bank) add(s.itemId, s.quantity);
  for (const s of Object.values(h.equipment ?? {})) if (s) add(s.itemId, s.quantity);
  if (h.coins !== 0) add(COINS, h.coins);
  return into;
}

/** The first item id whose count is not zero in a signed tally, or undefined. */
export function firstImbalance(tally: Map<string, number>): string | undefined {
  for (const [id, n] of tally) if (n !== 0) return `${id} ${n > 0 ? 'lost' : 'created'} ${Math.abs(n)}`;
  return undefined;
}

/** Replaces a character's holdings with `after` (equipment only when given). */
export async function writeHoldings(tx: SqlTx, characterId: string, after: Holdings): Promise<void> {
  if (after.inventory.length !== INVENTORY_SLOTS) {
    throw new TxAbort('constraint', `inventory must have ${INVENTORY_SLOTS} slots`);
  }
  await tx.query('UPDATE characters SET coins = $2 WHERE id = $1', [characterId, after.coins]);
  await tx.query('DELETE FROM inventory WHERE "characterId" = $1', [characterId]);
  const inv = inventoryRows(characterId, after.inventory);
  if (inv.length > 0) {
    await tx.query(
      `INSERT INTO inventory ("characterId", slot, "itemId", quantity)
       SELECT $1, r.slot, r."itemId", r.quantity FROM jsonb_to_recordset($2::text::jsonb) AS r(slot smallint, "itemId" text, quantity integer)`,
      [characterId, JSON.stringify(inv)],
    );
  }
  await tx.query('DELETE FROM bank WHERE "characterId" = $1', [characterId]);
  const bank = bankRows(characterId, after.bank);
  if (bank.length > 0) {
    await tx.query(
      `INSERT INTO bank ("characterId", "itemId", quantity, position)
       SELECT $1, r."itemId", r.quantity, r.position FROM jsonb_to_recordset($2::text::jsonb) AS r("itemId" text, quantity integer, position integer)`,
      [characterId, JSON.stringify(bank)],
    );
  }
  if (!after.equipment) return;
  await tx.query('DELETE FROM equipment WHERE "characterId" = $1', [characterId]);
  const eq = equipmentRows(characterId, after.equipment);
  if (eq.length > 0) {
    await tx.query(
      `INSERT INTO equipment ("characterId", "slotType", "itemId", quantity)
       SELECT $1, r."slotType", r."itemId", r.quantity FROM jsonb_to_recordset($2::text::jsonb) AS r("slotType" text, "itemId" text, quantity integer)`,
      [characterId, JSON.stringify(eq)],
    );
  }
}
