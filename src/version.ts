import { readFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../lib/repo-root.ts';

/** package.json's version, read once. */
export const PACKAGE_VERSION: string = (
  JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }
).version;

/** The /health version: the package version, `+<COMMIT_HASH>` when set (semver build metadata). */
export function serviceVersion(commitHash: string | undefined): string {
  return commitHash ? `${PACKAGE_VERSION}+${commitHash}` : PACKAGE_VERSION;
}
