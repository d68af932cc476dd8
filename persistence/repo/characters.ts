import {
  type CharacterState,
  EQUIP_SLOTS,
  type EquipSlot,
  INVENTORY_SLOTS,
} from '../../ecs/character-state.ts';
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
export const SAVE_CHUNK = 250;

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
  await insertHoldingRows(tx, [s]);
}

/** Inventory, equipment and bank rows of new characters. */
async function insertHoldingRows(tx: SqlTx, states: readonly CharacterState[]) {
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
  await upsertSlots(tx, states);
}

/**
 * Inventory and equipment of a batch, as a diff applied in the database: every slot is sent (null for
 * empty); empty slots are deleted, occupied ones upserted, and rows that did not change are left alone (no new
 * tuple, no foreign-key check), which is most of them in an interval save.
 */
async function upsertSlots(tx: SqlTx, states: readonly CharacterState[]): Promise<void> {
  const inv: { c: string; s: number; i: string | null; q: number | null }[] = [];
  const eq: { c: string; s: string; i: string | null; q: number | null }[] = [];
  for (const st of states) {
    // Slots past the end are sent too so the CHECK refuses them instead of dropping them.
    const slots = Math.max(INVENTORY_SLOTS, st.inventory.length);
    for (let slot = 0; slot < slots; slot++) {
      const stack = st.inventory[slot];
      inv.push({ c: st.id, s: slot, i: stack?.itemId ?? null, q: stack?.quantity ?? null });
    }
    const slotTypes = new Set<string>([...EQUIP_SLOTS, ...Object.keys(st.equipment)]);
    for (const slotType of slotTypes) {
      const stack = st.equipment[slotType as EquipSlot];
      eq.push({ c: st.id, s: slotType, i: stack?.itemId ?? null, q: stack?.quantity ?? null });
    }
  }
  // One statement each; rows are locked through their characters (FOR UPDATE above).
  await tx.query(
    `WITH r AS (SELECT * FROM jsonb_to_recordset($1::text::jsonb) AS r(c text, s smallint, i text, q integer)),
     gone AS (DELETE FROM inventory AS t USING r WHERE r.i IS NULL AND t."characterId" = r.c AND t.slot = r.s)
     INSERT INTO inventory ("characterId", slot, "itemId", quantity) SELECT r.c, r.s, r.i, r.q FROM r WHERE r.i IS NOT NULL
     ON CONFLICT ("characterId", slot) DO UPDATE SET "itemId" = EXCLUDED."itemId", quantity = EXCLUDED.quantity
     WHERE (inventory."itemId", inventory.quantity) IS DISTINCT FROM (EXCLUDED."itemId", EXCLUDED.quantity)`,
    [json(inv)],
  );
  await tx.query(
    `WITH r AS (SELECT * FROM jsonb_to_recordset($1::text::jsonb) AS r(c text, s text, i text, q integer)),
     gone AS (DELETE FROM equipment AS t USING r WHERE r.i IS NULL AND t."characterId" = r.c AND t."slotType" = r.s)
     INSERT INTO equipment ("characterId", "slotType", "itemId", quantity) SELECT r.c, r.s, r.i, r.q FROM r WHERE r.i IS NOT NULL
     ON CONFLICT ("characterId", "slotType") DO UPDATE SET "itemId" = EXCLUDED."itemId", quantity = EXCLUDED.quantity
     WHERE (equipment."itemId", equipment.quantity) IS DISTINCT FROM (EXCLUDED."itemId", EXCLUDED.quantity)`,
    [json(eq)],
  );
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
