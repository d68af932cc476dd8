import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../lib/repo-root.ts';
import { renderProtocolDoc } from '../net/protocol/docs.ts';
import { renderManifestDoc } from '../world/manifest-docs.ts';
import { renderFeatureDoc } from './feature-docs.ts';

/** `npm run docs`: the three generated pages, from the code that defines what they describe. */
const pages: [string, () => string][] = [
  ['docs/protocol.md', renderProtocolDoc],
  ['docs/manifests.md', renderManifestDoc],
  ['docs/features.md', renderFeatureDoc],
];
for (const [rel, render] of pages) {
  writeFileSync(path.join(REPO_ROOT, rel), render());
  console.log(`wrote ${rel}`);
}
