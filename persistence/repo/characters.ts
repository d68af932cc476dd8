import {
  type CharacterState,
  EQUIP_SLOTS,
  type EquipSlot,
  INVENTORY_SLOTS,
} from '../../ecs/core/character-state.ts';
import { type CharacterSummary, NameTakenError } from '../port.ts';
import { loadSlices, saveSlices } from '../slices/index.ts';
import { type SqlTx, sqlState } from '../sql.ts';
import type { OnQuarantine } from '../stored-json.ts';
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
import { type SlotCache, type SlotKeys, slotKey } from './slot-cache.ts';

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

/**
 * New characters in one statement; a character whose name is taken (by an existing one or an earlier
 * one of the batch) is skipped, and its holdings are not written. Returns the ids inserted.
 */
export async function insertCharactersSkippingTaken(
  tx: SqlTx,
  states: readonly CharacterState[],
): Promise<Set<string>> {
  if (states.length === 0) return new Set();
  const rows = states.map((s) => ({ ...characterRow(s), accountId: s.accountId, name: s.name }));
  const inserted = await tx.query<{ id: string }>(
    `INSERT INTO characters (id, "accountId", name, ${SAVED_COLUMN_LIST})
     SELECT r.id, r."accountId", r.name, ${SAVED_COLUMN_LIST.split(', ')
       .map((c) => `r.${c}`)
       .join(', ')}
     FROM jsonb_to_recordset($1::text::jsonb) AS r(id text, "accountId" text, name text, ${RECORDSET_TYPES})
     ON CONFLICT DO NOTHING RETURNING id`,
    [json(rows)],
  );
  const ids = new Set(inserted.map((r) => String(r.id)));
  await insertHoldingRows(
    tx,
    states.filter((s) => ids.has(s.id)),
  );
  return ids;
}

/** Full states of several characters (one query per table); `onQuarantine`: see persistence/stored-json.ts. */
export async function loadCharacters(
  tx: SqlTx,
  ids: readonly string[],
  onQuarantine?: OnQuarantine,
): Promise<Map<string, CharacterState>> {
  const out = new Map<string, CharacterState>();
  if (ids.length === 0) return out;
  const param = [json([...new Set(ids)])];
  const IN = `IN (SELECT jsonb_array_elements_text($1::text::jsonb))`;
  const rows = await tx.query(`SELECT * FROM characters WHERE id ${IN}`, param);
  if (rows.length === 0) return out;
  const group = <T extends { characterId: string }>(list: T[]) => {
    const m = new Map<string, T[]>();
    for (const r of list) {
      const k = String(r.characterId);
      const a = m.get(k);
      if (a) a.push(r);
      else m.set(k, [r]);
    }
    return m;
  };
  const inv = group(
    await tx.query<{ characterId: string; slot: number; itemId: string; quantity: number }>(
      `SELECT "characterId", slot, "itemId", quantity FROM inventory WHERE "characterId" ${IN}`,
      param,
    ),
  );
  const eq = group(
    await tx.query<{ characterId: string; slotType: string; itemId: string; quantity: number }>(
      `SELECT "characterId", "slotType", "itemId", quantity FROM equipment WHERE "characterId" ${IN}`,
      param,
    ),
  );
  const bank = group(
    await tx.query<{ characterId: string; itemId: string; quantity: number; position: number }>(
      `SELECT "characterId", "itemId", quantity, position FROM bank WHERE "characterId" ${IN}`,
      param,
    ),
  );
  for (const row of rows) {
    const id = String(row['id']);
    out.set(id, toCharacterState(row, inv.get(id) ?? [], eq.get(id) ?? [], bank.get(id) ?? []));
  }
  await loadSlices(tx, [...out.values()], onQuarantine);
  return out;
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
/** Slot keys a chunk wrote, to remember once the whole batch has committed. */
export type WrittenSlots = { id: string; gen: number; keys: SlotKeys }[];

export async function saveChunk(
  tx: SqlTx,
  snapshots: readonly CharacterState[],
  cache: SlotCache,
  written: WrittenSlots,
): Promise<void> {
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
  await upsertSlots(tx, states, cache, written);
  await saveSlices(tx, states);
}

/**
 * Inventory and equipment of a batch, as a diff applied in the database: every slot is sent (null for
 * empty); empty slots are deleted, occupied ones upserted, and rows that did not change are left alone (no new
 * tuple, no foreign-key check), which is most of them in an interval save.
 */
async function upsertSlots(
  tx: SqlTx,
  states: readonly CharacterState[],
  cache: SlotCache,
  written: WrittenSlots,
): Promise<void> {
  const inv: { c: string; s: number; i: string | null; q: number | null }[] = [];
  const eq: { c: string; s: string; i: string | null; q: number | null }[] = [];
  for (const st of states) {
    const known = cache.get(st.id);
    const keys: SlotKeys = new Array(INVENTORY_SLOTS + EQUIP_SLOTS.length);
    written.push({ id: st.id, gen: cache.gen(st.id), keys });
    // Slots past the end are sent too so the CHECK refuses them instead of dropping them.
    const slots = Math.max(INVENTORY_SLOTS, st.inventory.length);
    for (let slot = 0; slot < slots; slot++) {
      const stack = st.inventory[slot];
      const key = slotKey(stack);
      if (slot < INVENTORY_SLOTS) {
        keys[slot] = key;
        if (known?.[slot] === key) continue;
      }
      inv.push({ c: st.id, s: slot, i: stack?.itemId ?? null, q: stack?.quantity ?? null });
    }
    for (let k = 0; k < EQUIP_SLOTS.length; k++) {
      const slotType = EQUIP_SLOTS[k] as EquipSlot;
      const stack = st.equipment[slotType];
      const key = slotKey(stack);
      keys[INVENTORY_SLOTS + k] = key;
      if (known?.[INVENTORY_SLOTS + k] === key) continue;
      eq.push({ c: st.id, s: slotType, i: stack?.itemId ?? null, q: stack?.quantity ?? null });
    }
    // Unknown slot types are sent so the CHECK refuses them.
    for (const slotType of Object.keys(st.equipment)) {
      if ((EQUIP_SLOTS as readonly string[]).includes(slotType)) continue;
      const stack = st.equipment[slotType as EquipSlot];
      eq.push({ c: st.id, s: slotType, i: stack?.itemId ?? null, q: stack?.quantity ?? null });
    }
  }
  if (inv.length > 0) await applySlotRows(tx, 'inventory', inv);
  if (eq.length > 0) await applySlotRows(tx, 'equipment', eq);
}

async function applySlotRows(tx: SqlTx, table: 'inventory' | 'equipment', rows: unknown[]): Promise<void> {
  // One statement each; rows are locked through their characters (FOR UPDATE above).
  if (table === 'inventory') {
    await tx.query(
      `WITH r AS (SELECT * FROM jsonb_to_recordset($1::text::jsonb) AS r(c text, s smallint, i text, q integer)),
     gone AS (DELETE FROM inventory AS t USING r WHERE r.i IS NULL AND t."characterId" = r.c AND t.slot = r.s)
     INSERT INTO inventory ("characterId", slot, "itemId", quantity) SELECT r.c, r.s, r.i, r.q FROM r WHERE r.i IS NOT NULL
     ON CONFLICT ("characterId", slot) DO UPDATE SET "itemId" = EXCLUDED."itemId", quantity = EXCLUDED.quantity
     WHERE (inventory."itemId", inventory.quantity) IS DISTINCT FROM (EXCLUDED."itemId", EXCLUDED.quantity)`,
      [json(rows)],
    );
    return;
  }
  await tx.query(
    `WITH r AS (SELECT * FROM jsonb_to_recordset($1::text::jsonb) AS r(c text, s text, i text, q integer)),
     gone AS (DELETE FROM equipment AS t USING r WHERE r.i IS NULL AND t."characterId" = r.c AND t."slotType" = r.s)
     INSERT INTO equipment ("characterId", "slotType", "itemId", quantity) SELECT r.c, r.s, r.i, r.q FROM r WHERE r.i IS NOT NULL
     ON CONFLICT ("characterId", "slotType") DO UPDATE SET "itemId" = EXCLUDED."itemId", quantity = EXCLUDED.quantity
     WHERE (equipment."itemId", equipment.quantity) IS DISTINCT FROM (EXCLUDED."itemId", EXCLUDED.quantity)`,
    [json(rows)],
  );
}

export async function loadCharacter(
  tx: SqlTx,
  id: string,
  onQuarantine?: OnQuarantine,
): Promise<CharacterState | null> {
  return (await loadCharacters(tx, [id], onQuarantine)).get(id) ?? null;
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
