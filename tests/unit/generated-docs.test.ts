import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FEATURES } from '../../ecs/schedule.ts';
import { REPO_ROOT } from '../../lib/repo-root.ts';
import { folderOf, renderFeatureDoc } from '../../src/feature-docs.ts';
import { renderManifestDoc } from '../../world/manifest-docs.ts';

/** The pages `npm run docs` writes are what the code generates now (docs/protocol.md: protocol-docs.test.ts). */
describe.each([
  ['docs/manifests.md', renderManifestDoc],
  ['docs/features.md', renderFeatureDoc],
])('%s', (rel, render) => {
  it('is what the code generates (run `npm run docs` after changing a feature, a face or a core manifest)', () => {
    expect(readFileSync(path.join(REPO_ROOT, rel), 'utf8')).toBe(render());
  });
});

describe('docs/features.md', () => {
  it('lists every feature, and each feature folder with a docs.md page has its page in it', () => {
    const page = renderFeatureDoc();
    for (const name of ['players', 'movement', 'combat', 'homeTeleport'])
      expect(page).toContain(`## ${name}\n`);
  });
});
