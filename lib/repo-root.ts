import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The project's root: the nearest folder above this module holding package.json. Works from the
 * sources (lib/) and from a compiled build (dist/lib/) alike, so files read at run time (package.json,
 * SQL migrations) are found either way.
 */
function findRepoRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(path.join(dir, 'package.json')) && existsSync(path.join(dir, 'persistence'))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('cannot find the project root (package.json) above lib/repo-root');
    dir = parent;
  }
}

export const REPO_ROOT = findRepoRoot();
