import { describe, expect, it } from 'vitest';
import { referenceAvailable, referenceManifests } from '../../../tests/fixtures/content/paths.ts';
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

/**
 * Reads ../shared/content/hyperscape-manifests (the reference content, loaded unchanged): every gathering
 * node and every recipe of every kind goes through the systems once. Content gaps are warnings, as the
 * loader reports them.
 */
describe.runIf(referenceAvailable())('reads ../shared/content/hyperscape-manifests: every skill runs', () => {
  it('every recipe kind is loaded, every node gathers, every recipe makes one', async () => {
    const content = toSimContent(await loadContent(referenceManifests));
    expect(new Set(content.recipes?.map((r) => r.kind))).toEqual(new Set(KINDS));
    expect(new Set([...(content.gatheringNodes?.values() ?? [])].map((n) => n.skill))).toEqual(
      new Set(['woodcutting', 'mining', 'fishing']),
    );
    const warnings = runEverySkill(content);
    if (warnings.length > 0) console.warn(`reference content gaps:\n${warnings.join('\n')}`);
    expect(warnings.filter((w) => w.includes('no xp'))).toEqual([]);
  });
});
