import {
  type CharacterState,
  EQUIP_SLOTS,
  type EquipSlot,
  INVENTORY_SLOTS,
  type ItemStack,
} from '../../ecs/core/character-state.ts';
import { combatLevel, SKILLS, type Skills } from '../../ecs/core/skills.ts';

/** The characters table's columns (the specification's names) and the mapping to CharacterState. */

const q = (name: string) => `"${name}"`;

/** Columns a save writes, in a fixed order, each with its SQL type for jsonb_to_recordset. */
export const SAVED_COLUMNS: readonly (readonly [string, string])[] = [
  ['combatLevel', 'integer'],
  ...SKILLS.flatMap((s) => [[`${s}Level`, 'integer'] as const, [`${s}Xp`, 'integer'] as const]),
  ['health', 'integer'],
  ['coins', 'integer'],
  ['positionX', 'real'],
  ['positionY', 'real'],
  ['positionZ', 'real'],
];

export const SAVED_COLUMN_LIST = SAVED_COLUMNS.map(([c]) => q(c)).join(', ');
/** `"col" integer, …` for `jsonb_to_recordset(...) AS r(id text, …)`. */
export const RECORDSET_TYPES = SAVED_COLUMNS.map(([c, t]) => `${q(c)} ${t}`).join(', ');
export const SET_FROM_R = SAVED_COLUMNS.map(([c]) => `${q(c)} = r.${q(c)}`).join(', ');

/** A character's row values keyed by column name (JSON-safe). */
export function characterRow(s: CharacterState): Record<string, unknown> {
  const row: Record<string, unknown> = { id: s.id, combatLevel: combatLevel(s.skills) };
  for (const skill of SKILLS) {
    row[`${skill}Level`] = s.skills[skill].level;
    row[`${skill}Xp`] = Math.floor(s.skills[skill].xp);
  }
  row['health'] = s.health;
  row['coins'] = s.coins;
  row['positionX'] = s.position.x;
  row['positionY'] = s.position.y;
  row['positionZ'] = s.position.z;
  return row;
}

export interface SlotRow {
  characterId: string;
  slot: number;
  itemId: string;
  quantity: number;
}
export interface EquipRow {
  characterId: string;
  slotType: string;
  itemId: string;
  quantity: number;
}
export interface BankRow {
  characterId: string;
  itemId: string;
  quantity: number;
  position: number;
}

export function inventoryRows(characterId: string, inventory: readonly (ItemStack | null)[]): SlotRow[] {
  const rows: SlotRow[] = [];
  inventory.forEach((stack, slot) => {
    if (stack) rows.push({ characterId, slot, itemId: stack.itemId, quantity: stack.quantity });
  });
  return rows;
}

export function equipmentRows(characterId: string, equipment: CharacterState['equipment']): EquipRow[] {
  const rows: EquipRow[] = [];
  for (const [slotType, stack] of Object.entries(equipment)) {
    if (stack) rows.push({ characterId, slotType, itemId: stack.itemId, quantity: stack.quantity });
  }
  return rows;
}

export function bankRows(characterId: string, bank: readonly ItemStack[]): BankRow[] {
  return bank.map((b, position) => ({ characterId, itemId: b.itemId, quantity: b.quantity, position }));
}

export function toInventory(rows: readonly { slot: number; itemId: string; quantity: number }[]) {
  const inv: (ItemStack | null)[] = Array.from({ length: INVENTORY_SLOTS }, () => null);
  for (const r of rows) inv[r.slot] = { itemId: r.itemId, quantity: r.quantity };
  return inv;
}

export function toEquipment(rows: readonly { slotType: string; itemId: string; quantity: number }[]) {
  const eq: CharacterState['equipment'] = {};
  for (const r of rows) {
    if ((EQUIP_SLOTS as readonly string[]).includes(r.slotType)) {
      eq[r.slotType as EquipSlot] = { itemId: r.itemId, quantity: r.quantity };
    }
  }
  return eq;
}

/** Bank rows sorted by position. */
export function toBank(rows: readonly { itemId: string; quantity: number; position: number }[]): ItemStack[] {
  return [...rows]
    .sort((a, b) => a.position - b.position)
    .map((r) => ({ itemId: r.itemId, quantity: r.quantity }));
}

export function toCharacterState(
  row: Record<string, unknown>,
  inv: Parameters<typeof toInventory>[0],
  eq: Parameters<typeof toEquipment>[0],
  bank: Parameters<typeof toBank>[0],
): CharacterState {
  const skills = {} as Skills;
  for (const s of SKILLS) {
    skills[s] = { level: Number(row[`${s}Level`]), xp: Number(row[`${s}Xp`]) };
  }
  return {
    id: String(row['id']),
    accountId: String(row['accountId']),
    name: String(row['name']),
    position: { x: Number(row['positionX']), y: Number(row['positionY']), z: Number(row['positionZ']) },
    health: Number(row['health']),
    coins: Number(row['coins']),
    skills,
    inventory: toInventory(inv),
    equipment: toEquipment(eq),
    bank: toBank(bank),
  };
}
