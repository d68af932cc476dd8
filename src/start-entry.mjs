// What `npm start` runs: prints the command line for `env` (the start script is `exec env $(node
// src/start-entry.mjs)`): the variables the allocator needs (`LD_PRELOAD=...`, src/allocator.mjs: jemalloc
// when installed, unless SERVER_ALLOCATOR=system), then `node` and its arguments. bench/load/server.ts
// starts the server from the same line. The server runs compiled when it can: from the sources, every thread of it
// (main, network, PGlite) loads ~300 TypeScript modules through tsx, which costs seconds of start-up and
// ~180 MB of memory (docs/scaling.md). So the server is built into dist/ with tsc when a TypeScript
// source is newer than the last build (seconds, once per change; what it prints goes to stderr), and
// the compiled entry runs. The sources run through tsx instead when no build can be had: SERVER_FROM_SOURCE=1,
// tsc not installed (a production install without dev dependencies), or a build that fails (a type error).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chooseAllocator } from './allocator.mjs';

const root = path.resolve(fileURLToPath(new URL('..', import.meta.url)));
const SOURCE_DIRS = ['lib', 'src', 'ecs', 'net', 'persistence', 'world'];
const CONFIGS = ['tsconfig.json', 'tsconfig.build.json', 'package-lock.json'];
const FROM_SOURCE = ['--import', 'tsx', 'src/main.ts'];
const COMPILED = ['dist/src/main.js'];
const dist = path.join(root, 'dist');
const stamp = path.join(dist, '.server-build');

/** The newest modification time (ms) of the TypeScript files under a directory. */
function newest(dir) {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules') latest = Math.max(latest, newest(full));
    } else if (entry.isFile() && entry.name.endsWith('.ts'))
      latest = Math.max(latest, statSync(full).mtimeMs);
  }
  return latest;
}

function pick() {
  if (process.env.SERVER_FROM_SOURCE === '1') return FROM_SOURCE;
  const changedAt = Math.max(
    ...SOURCE_DIRS.map((d) => path.join(root, d))
      .filter((d) => existsSync(d))
      .map(newest),
    ...CONFIGS.map((f) => path.join(root, f))
      .filter((f) => existsSync(f))
      .map((f) => statSync(f).mtimeMs),
  );
  const builtAt = existsSync(stamp) ? statSync(stamp).mtimeMs : 0;
  if (builtAt >= changedAt && existsSync(path.join(dist, 'src', 'main.js'))) return COMPILED;
  const tsc = path.join(root, 'node_modules', '.bin', 'tsc');
  if (!existsSync(tsc)) return FROM_SOURCE;
  // Built aside and moved in whole: a server starting meanwhile never loads half a build.
  const building = path.join(root, `dist.building-${process.pid}`);
  const startedAt = new Date();
  const t0 = performance.now();
  const r = spawnSync(tsc, ['-p', 'tsconfig.build.json', '--outDir', building], {
    cwd: root,
    stdio: ['ignore', 2, 2],
  });
  if (r.status !== 0) {
    rmSync(building, { recursive: true, force: true });
    process.stderr.write('server: the build failed (above): running the sources through tsx\n');
    return FROM_SOURCE;
  }
  // Stamped with the time the build started: a source saved during the build makes the next start build.
  const built = path.join(building, '.server-build');
  writeFileSync(built, '');
  utimesSync(built, startedAt, startedAt);
  rmSync(dist, { recursive: true, force: true });
  renameSync(building, dist);
  process.stderr.write(`server: built into dist/ in ${Math.round(performance.now() - t0)} ms\n`);
  return COMPILED;
}

// Whatever goes wrong here, the sources still run (an empty line would make `env` print the environment).
let args = FROM_SOURCE;
try {
  args = pick();
} catch (err) {
  process.stderr.write(
    `server: no compiled build (${err instanceof Error ? err.message : String(err)}): running the sources\n`,
  );
}
let assignments = [];
try {
  const choice = chooseAllocator({
    env: process.env,
    platform: process.platform,
    arch: process.arch,
    exists: existsSync,
  });
  if (choice.warning) process.stderr.write(`${choice.warning}\n`);
  assignments = Object.entries(choice.set).map(([k, v]) => `${k}=${v}`);
} catch (err) {
  process.stderr.write(
    `server: allocator not chosen (${err instanceof Error ? err.message : String(err)})\n`,
  );
}
process.stdout.write([...assignments, 'node', ...args].join(' '));
