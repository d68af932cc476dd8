import { describe, expect, it } from 'vitest';
import { defaultManifests } from '../../../tests/fixtures/content/paths.ts';
import { runEverySkill } from '../../../tests/helpers/skills-run.ts';
import { loadContent } from '../../../world/loader.ts';
import { toSimContent } from '../../../world/sim-content.ts';

const KINDS = [
  'cooking',
  'firemaking',
  'smelting',
  'smithing',
  'crafting',
  'fletching',
  'tanning',
  'runecrafting',
];

describe('the default world: every skill runs', () => {
  it('has every recipe kind and skill, every node gathers, every recipe makes one, with no content gap', async () => {
    const content = toSimContent(await loadContent(defaultManifests));
    expect(new Set(content.recipes?.map((r) => r.kind))).toEqual(new Set(KINDS));
    expect(runEverySkill(content)).toEqual([]);
    const starter = content.starterInventory.map((s) => s.itemId);
    for (const tool of [
      'flint_hatchet',
      'flint_pickaxe',
      'fishing_net',
      'tinderbox',
      'hammer',
      'knife',
      'needle',
    ])
      expect(starter).toContain(tool);
  });
});
