import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { REPO_ROOT } from '../../lib/repo-root.ts';

/**
 * Global setup of the projects whose tests start the server as a child process (tests/helpers/
 * server-process.ts): the server compiled once with tsc, as `npm start` runs it. From the sources every
 * start would load ~300 modules through tsx in each of the server's threads: about 3 s more CPU a
 * start, and these tests start it dozens of times.
 *
 * Built into a directory of this run's own under test-results/, not dist/: `npm start` (which other
 * tests run) replaces dist/ whole when the sources changed, and a server starting then would find none.
 */

declare module 'vitest' {
  export interface ProvidedContext {
    /** The compiled entry (src/main.js of the build), or '' when the build failed. */
    compiledServer?: string;
  }
}

export default function setup(project: TestProject): () => void {
  const out = path.join(REPO_ROOT, 'test-results', `server-build-${project.name}-${process.pid}`);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(path.dirname(out), { recursive: true });
  const tsc = path.join(REPO_ROOT, 'node_modules', '.bin', 'tsc');
  const r = spawnSync(tsc, ['-p', 'tsconfig.build.json', '--outDir', out], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
  });
  const entry = path.join(out, 'src', 'main.js');
  if (r.status !== 0 || !existsSync(entry)) {
    // The type check reports the error; the tests still run, from the sources.
    process.stderr.write(
      `compiled-server: tsc failed, servers start from the sources\n${r.stdout}${r.stderr}\n`,
    );
    project.provide('compiledServer', '');
  } else project.provide('compiledServer', entry);
  return () => rmSync(out, { recursive: true, force: true });
}
