import type { ItemStack } from '../../core/character-state.ts';
import type { DropTable } from '../../core/content.ts';
import type { Rng } from '../../core/rng.ts';

/**
 * An NPC's loot from its table (npcs.json `drops`): the default drop (bones) when enabled, each `always`
 * entry (by its own `chance`, 1 by default), then one roll per weighted tier (common, uncommon, rare,
 * very rare): a single number in [0, 1) walks the tier's entries by their `chance`, so at most one entry
 * of a tier drops, with probability `chance` each (a tier whose chances add up past 1 is scaled to 1).
 * Quantities are uniform in [minQuantity, maxQuantity]. Only the world's seeded generator is used.
 */
export function rollDrops(rng: Rng, table: DropTable): ItemStack[] {
  const out: ItemStack[] = [];
  if (table.defaultDrop) out.push({ itemId: table.defaultDrop.itemId, quantity: table.defaultDrop.quantity });
  for (const d of table.always) {
    if (d.chance >= 1 || rng.chance(d.chance))
      out.push({ itemId: d.itemId, quantity: rng.int(d.minQuantity, d.maxQuantity) });
  }
  for (const tier of table.tiers) {
    if (tier.length === 0) continue;
    const total = tier.reduce((sum, d) => sum + d.chance, 0);
    const scale = Math.max(total, 1);
    let r = rng.next() * scale;
    for (const d of tier) {
      if (r < d.chance) {
        out.push({ itemId: d.itemId, quantity: rng.int(d.minQuantity, d.maxQuantity) });
        break;
      }
      r -= d.chance;
    }
  }
  return out;
}
