import { readFileSync } from 'node:fs';

/** package.json's version, read once. */
export const PACKAGE_VERSION: string = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

/** The /health version: the package version, `+<COMMIT_HASH>` when set (semver build metadata). */
export function serviceVersion(commitHash: string | undefined): string {
  return commitHash ? `${PACKAGE_VERSION}+${commitHash}` : PACKAGE_VERSION;
}
