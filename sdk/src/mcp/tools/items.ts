import type { ServerPayload } from '../../protocol.generated.ts';
import type { GameSession } from '../session.ts';

type Inventory = ServerPayload<'player:sync'>['inventory'];

/**
 * The inventory slot an LLM means: a slot number (0-27), an item id, or an item name (exact, then a
 * part of it), the first slot holding it; `except` is skipped (an item used on another of its kind).
 */
export function findSlot(s: GameSession, inv: Inventory, query: string, except?: number): number | undefined {
  const q = query.trim().toLowerCase();
  if (/^\d{1,2}$/.test(q)) {
    const slot = Number(q);
    return inv[slot] && slot !== except ? slot : undefined;
  }
  const held = inv.flatMap((i, slot) => (i && slot !== except ? [{ slot, id: i.itemId.toLowerCase() }] : []));
  const name = (id: string) => s.content.itemName(id).toLowerCase();
  return (
    held.find((h) => h.id === q)?.slot ??
    held.find((h) => name(h.id) === q)?.slot ??
    held.find((h) => q.length >= 3 && (name(h.id).includes(q) || h.id.includes(q)))?.slot
  );
}

/** The item id among `ids` an LLM means: the id, the name, then a part of either (3 letters or more). */
export function findItemId(s: GameSession, ids: readonly string[], query: string): string | undefined {
  const q = query.trim().toLowerCase();
  const name = (id: string) => s.content.itemName(id).toLowerCase();
  return (
    ids.find((id) => id.toLowerCase() === q) ??
    ids.find((id) => name(id) === q) ??
    ids.find((id) => q.length >= 3 && (name(id).includes(q) || id.toLowerCase().includes(q)))
  );
}
