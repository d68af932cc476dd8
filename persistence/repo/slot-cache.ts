/**
 * What this process last committed to each character's inventory and equipment rows, one key per slot
 * ("itemId\u0000quantity", "" for empty). A batch save then sends only the slots that differ, instead of
 * 28 + 11 rows per character. Anything else that writes holdings (item transactions, death locks,
 * deletes) forgets the character before and after it runs; a save records its keys only when no such
 * write touched the character meanwhile (generation unchanged), so the cache never claims a state the
 * database does not hold. Unknown characters are sent whole. One server process per database.
 */

/** Index: inventory slot 0..27, then INVENTORY_SLOTS + index in EQUIP_SLOTS. Plain strings: cheap for GC. */
export type SlotKeys = string[];

export class SlotCache {
  private readonly keys = new Map<string, SlotKeys>();
  private readonly generation = new Map<string, number>();

  get(characterId: string): SlotKeys | undefined {
    return this.keys.get(characterId);
  }

  gen(characterId: string): number {
    return this.generation.get(characterId) ?? 0;
  }

  forget(characterIds: Iterable<string>): void {
    for (const id of characterIds) {
      this.keys.delete(id);
      this.generation.set(id, this.gen(id) + 1);
    }
  }

  /** After a committed save: record its keys unless another writer touched the character since `gen`. */
  remember(characterId: string, gen: number, keys: SlotKeys): void {
    if (this.gen(characterId) === gen) this.keys.set(characterId, keys);
  }
}

export const slotKey = (s: { itemId: string; quantity: number } | null | undefined): string =>
  s ? `${s.itemId}\u0000${s.quantity}` : '';
