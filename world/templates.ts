import type { ItemDef } from './schemas/items.ts';
import type { CharacterTemplate } from './schemas/project.ts';

/**
 * The default character template when character-templates.json is absent: the cheapest hatchet, pickaxe
 * and food that exist (deterministic: ties broken by id), so a new character can gather and eat.
 */
export function defaultTemplate(items: ReadonlyMap<string, ItemDef>): CharacterTemplate {
  const all = [...items.values()].sort((a, b) => a.value - b.value || a.id.localeCompare(b.id));
  const pick = (test: (i: ItemDef) => boolean) => all.find(test);
  const kit = [
    pick((i) => i.id.endsWith('_hatchet') || i.tool?.skill === 'woodcutting'),
    pick((i) => i.id.endsWith('_pickaxe') || i.tool?.skill === 'mining'),
    pick((i) => (i.healAmount ?? 0) > 0),
  ].filter((i): i is ItemDef => i !== undefined);
  return {
    id: 'default',
    name: 'Adventurer',
    description: 'A starter kit assembled from the items this world offers.',
    inventory: kit.map((i) => ({ itemId: i.id, quantity: 1 })),
    equipment: {},
    coins: 0,
  };
}
