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
  it('has a section per feature, and every docs.md under ecs/features/ is in the section of its folder', () => {
    const page = renderFeatureDoc();
    for (const f of FEATURES) expect(page).toContain(`## ${f.name}\n`);
    const dir = path.join(REPO_ROOT, 'ecs/features');
    for (const folder of readdirSync(dir)) {
      const file = path.join(dir, folder, 'docs.md');
      if (!existsSync(file)) continue;
      const feature = FEATURES.find((f) => folderOf(f.name) === folder);
      expect(feature, `${folder}/docs.md belongs to no feature of FEATURES`).toBeDefined();
      const section = page.split('\n## ').find((s) => s.startsWith(`${feature?.name}\n`)) ?? '';
      expect(section).toContain(readFileSync(file, 'utf8').trim());
    }
  });
});
