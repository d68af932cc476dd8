import type { CharacterState } from '../../ecs/character-state.ts';
import { type CharacterSummary, NameTakenError } from '../port.ts';
import { type SqlTx, sqlState } from '../sql.ts';
import {
  bankRows,
  characterRow,
  equipmentRows,
  inventoryRows,
  RECORDSET_TYPES,
  SAVED_COLUMN_LIST,
  SET_FROM_R,
  toCharacterState,
} from './character-rows.ts';

/** Character queries. Row sets travel as one JSON text parameter (same SQL on both drivers). */

const SUMMARY = `id, "accountId", name, "combatLevel", "createdAt", "lastLoginAt"`;
/** Characters per statement of a batch save: keeps each JSON string and each statement short. */
export const SAVE_CHUNK = 500;

const json = (v: unknown) => JSON.stringify(v);

export function toSummary(r: Record<string, unknown>): CharacterSummary {
  return {
    id: String(r['id']),
    accountId: String(r['accountId']),
    name: String(r['name']),
    combatLevel: Number(r['combatLevel']),
    createdAt: r['createdAt'] as Date,
    lastLoginAt: (r['lastLoginAt'] as Date | null) ?? null,
  };
}

export function rethrowNameTaken(err: unknown, name: string): never {
  if (sqlState(err) === '23505' && String((err as Error).message).includes('characters_name_lower')) {
    throw new NameTakenError(name);
  }
  throw err;
}

export async function insertCharacter(tx: SqlTx, s: CharacterState): Promise<void> {
  const row = { ...characterRow(s), accountId: s.accountId, name: s.name };
  await tx.query(
    `INSERT INTO characters (id, "accountId", name, ${SAVED_COLUMN_LIST})
     SELECT r.id, r."accountId", r.name, ${SAVED_COLUMN_LIST.split(', ')
       .map((c) => `r.${c}`)
       .join(', ')}
     FROM jsonb_to_recordset($1::text::jsonb) AS r(id text, "accountId" text, name text, ${RECORDSET_TYPES})`,
    [json([row])],
  );
  await insertHoldingRows(tx, [s], true);
}

/** Inventory and equipment (and with `bank`, the bank) rows of characters whose rows were cleared. */
async function insertHoldingRows(tx: SqlTx, states: readonly CharacterState[], bank: boolean) {
  const inv = states.flatMap((s) => inventoryRows(s.id, s.inventory));
  if (inv.length > 0) {
    await tx.query(
      `INSERT INTO inventory ("characterId", slot, "itemId", quantity)
       SELECT r."characterId", r.slot, r."itemId", r.quantity
       FROM jsonb_to_recordset($1::text::jsonb) AS r("characterId" text, slot smallint, "itemId" text, quantity integer)`,
      [json(inv)],
    );
  }
  const eq = states.flatMap((s) => equipmentRows(s.id, s.equipment));
  if (eq.length > 0) {
    await tx.query(
      `INSERT INTO equipment ("characterId", "slotType", "itemId", quantity)
       SELECT r."characterId", r."slotType", r."itemId", r.quantity
       FROM jsonb_to_recordset($1::text::jsonb) AS r("characterId" text, "slotType" text, "itemId" text, quantity integer)`,
      [json(eq)],
    );
  }
  if (!bank) return;
  const rows = states.flatMap((s) => bankRows(s.id, s.bank));
  if (rows.length > 0) {
    await tx.query(
      `INSERT INTO bank ("characterId", "itemId", quantity, position)
       SELECT r."characterId", r."itemId", r.quantity, r.position
       FROM jsonb_to_recordset($1::text::jsonb) AS r("characterId" text, "itemId" text, quantity integer, position integer)`,
      [json(rows)],
    );
  }
}

/**
 * Full state of each character except the bank. Rows are locked in id order first so a batch and an
 * item transaction cannot deadlock; characters deleted meanwhile are skipped.
 */
export async function saveChunk(tx: SqlTx, snapshots: readonly CharacterState[]): Promise<void> {
  const ids = [...new Set(snapshots.map((s) => s.id))].sort();
  const locked = await tx.query<{ id: string }>(
    `SELECT id FROM characters WHERE id IN (SELECT jsonb_array_elements_text($1::text::jsonb)) ORDER BY id FOR UPDATE`,
    [json(ids)],
  );
  const present = new Set(locked.map((r) => r.id));
  // The last snapshot of a character in the batch wins.
  const latest = new Map<string, CharacterState>();
  for (const s of snapshots) if (present.has(s.id)) latest.set(s.id, s);
  const states = [...latest.values()];
  if (states.length === 0) return;
  await tx.query(
    `UPDATE characters AS c SET ${SET_FROM_R}, "savedAt" = now()
     FROM jsonb_to_recordset($1::text::jsonb) AS r(id text, ${RECORDSET_TYPES}) WHERE c.id = r.id`,
    [json(states.map(characterRow))],
  );
  const idsJson = json(states.map((s) => s.id));
  await tx.query(
    `DELETE FROM inventory WHERE "characterId" IN (SELECT jsonb_array_elements_text($1::text::jsonb))`,
    [idsJson],
  );
  await tx.query(
    `DELETE FROM equipment WHERE "characterId" IN (SELECT jsonb_array_elements_text($1::text::jsonb))`,
    [idsJson],
  );
  await insertHoldingRows(tx, states, false);
}

export async function loadCharacter(tx: SqlTx, id: string): Promise<CharacterState | null> {
  const [row] = await tx.query('SELECT * FROM characters WHERE id = $1', [id]);
  if (!row) return null;
  const inv = await tx.query<{ slot: number; itemId: string; quantity: number }>(
    'SELECT slot, "itemId", quantity FROM inventory WHERE "characterId" = $1',
    [id],
  );
  const eq = await tx.query<{ slotType: string; itemId: string; quantity: number }>(
    'SELECT "slotType", "itemId", quantity FROM equipment WHERE "characterId" = $1',
    [id],
  );
  const bank = await tx.query<{ itemId: string; quantity: number; position: number }>(
    'SELECT "itemId", quantity, position FROM bank WHERE "characterId" = $1',
    [id],
  );
  return toCharacterState(row, inv, eq, bank);
}

export async function listCharacters(tx: SqlTx, accountId: string): Promise<CharacterSummary[]> {
  const rows = await tx.query(
    `SELECT ${SUMMARY} FROM characters WHERE "accountId" = $1 ORDER BY "createdAt", id`,
    [accountId],
  );
  return rows.map(toSummary);
}

export async function findCharacterByName(tx: SqlTx, name: string): Promise<CharacterSummary | null> {
  const [row] = await tx.query(`SELECT ${SUMMARY} FROM characters WHERE lower(name) = lower($1)`, [name]);
  return row ? toSummary(row) : null;
}
