// Builds the web client into public/ when that build is missing or older than what it is made from
// (client/ and the manifests it cuts down at build time), so `npm install && npm start` serves the
// game at `/`. Run by `npm start` (prestart) and after `npm install`/`npm ci` (prepare). A fresh build
// is left alone: the check reads the modification times of about a hundred files. Where Vite is not
// installed (a production install without dev dependencies) it says so and leaves public/ as it is.
// `node client/ensure-build.mjs --out <dir>` builds elsewhere (tests).
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(fileURLToPath(new URL('..', import.meta.url)));
const outArg = process.argv.indexOf('--out');
const outDir = outArg > 0 ? path.resolve(process.argv[outArg + 1] ?? '') : path.join(root, 'public');
const sources = [path.join(root, 'client'), path.join(root, 'world', 'assets', 'manifests')];

/** The newest modification time (ms) of the files under a directory. */
function newest(dir) {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) latest = Math.max(latest, newest(full));
    else if (entry.isFile()) latest = Math.max(latest, statSync(full).mtimeMs);
  }
  return latest;
}

const started = performance.now();
const index = path.join(outDir, 'index.html');
const builtAt = existsSync(index) ? statSync(index).mtimeMs : 0;
const changedAt = Math.max(...sources.filter((d) => existsSync(d)).map(newest));
if (process.env.SKIP_CLIENT_BUILD === '1') {
  console.log('client: SKIP_CLIENT_BUILD=1, not checking the build');
} else if (builtAt >= changedAt) {
  console.log(
    `client: ${path.relative(root, outDir) || outDir} is up to date (checked in ${Math.round(performance.now() - started)} ms)`,
  );
} else {
  let vite;
  try {
    vite = await import('vite');
  } catch {
    console.log(
      'client: Vite is not installed (dependencies without devDependencies): not building the web client',
    );
    process.exit(0);
  }
  await vite.build({
    configFile: path.join(root, 'client', 'vite.config.ts'),
    logLevel: 'warn',
    build: { outDir, emptyOutDir: true },
  });
  console.log(
    `client: built into ${path.relative(root, outDir) || outDir} in ${Math.round(performance.now() - started)} ms`,
  );
}
