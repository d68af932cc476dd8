import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { REPO_ROOT } from '../../lib/repo-root.ts';
import { startTsWorker } from '../../lib/ts-worker.ts';

/**
 * A new PGlite data directory from a prepared one. initdb inside PGlite takes seconds (10 s and more on a
 * busy machine) and leaves its WebAssembly instances in the process for good (about 300 MB of resident
 * memory). So the first time, initdb runs once in a worker that then ends, into a template kept with the
 * installed packages (node_modules/.cache, one per PGlite version); every new data directory after that
 * (a new WORLD, each test or bench world) is a copy of it, which opens in well under a second.
 *
 * The template is never trusted blindly: it is used only when its marker (written last, after initdb
 * closed cleanly) names this PGlite version and the files and bytes present match what it recorded,
 * and a copy is used only when it matches the marker too. Anything else falls back to a fresh initdb
 * (still in a worker that ends). A directory that already holds a database is never touched.
 */

const MARKER = 'template.json';

interface Marker {
  pglite: string;
  files: number;
  bytes: number;
}

function pgliteVersion(): string {
  // Its package.json is not exported: found from the entry point (<package>/dist/index.cjs).
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  const pkg = JSON.parse(readFileSync(path.join(path.dirname(entry), '..', 'package.json'), 'utf8'));
  return String((pkg as { version: unknown }).version);
}

/** Files (recursively) and their total size, the marker left out. */
function measure(dir: string): { files: number; bytes: number } {
  let files = 0;
  let bytes = 0;
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, e.name);
      if (e.isDirectory()) walk(full);
      else if (e.isFile() && !(d === dir && e.name === MARKER)) {
        files++;
        bytes += statSync(full).size;
      }
    }
  };
  walk(dir);
  return { files, bytes };
}

function readMarker(dir: string): Marker | null {
  try {
    return JSON.parse(readFileSync(path.join(dir, MARKER), 'utf8')) as Marker;
  } catch {
    return null;
  }
}

function matches(dir: string, marker: Marker): boolean {
  const m = measure(dir);
  return m.files === marker.files && m.bytes === marker.bytes && m.files > 0;
}

/** initdb into `dir` in a worker that ends once the database closed. */
function initInWorker(dir: string): Promise<void> {
  mkdirSync(dir, { recursive: true });
  const worker = startTsWorker(new URL('./pglite-init-worker.ts', import.meta.url), { dataDir: dir });
  return new Promise<void>((resolve, reject) => {
    let done = false;
    worker.once('message', () => {
      done = true;
      void worker.terminate().then(() => resolve());
    });
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (!done) reject(new Error(`PGlite initdb worker exited (${code}) before the database was ready`));
    });
  });
}

export function defaultTemplateDir(): string {
  return path.join(REPO_ROOT, 'node_modules', '.cache', 'hyperscape', `pglite-${pgliteVersion()}`);
}

/** The template, made now when missing or not valid; null when it cannot be made (read-only install). */
async function ensureTemplate(templateDir: string): Promise<Marker | null> {
  const version = pgliteVersion();
  const marker = readMarker(templateDir);
  if (marker?.pglite === version && matches(templateDir, marker)) return marker;
  const building = `${templateDir}.building-${process.pid}-${Date.now()}`;
  try {
    await initInWorker(building);
    const made: Marker = { pglite: version, ...measure(building) };
    writeFileSync(path.join(building, MARKER), JSON.stringify(made));
    // Another server may have made one meanwhile (it may be copying from it): kept; a stale one replaced.
    const current = readMarker(templateDir);
    if (!(current?.pglite === version && matches(templateDir, current))) {
      rmSync(templateDir, { recursive: true, force: true });
      try {
        renameSync(building, templateDir);
      } catch {
        // lost the race to a server that renamed first: its template is used
      }
    }
    const kept = readMarker(templateDir);
    return kept?.pglite === version && matches(templateDir, kept) ? kept : null;
  } catch {
    return null;
  } finally {
    rmSync(building, { recursive: true, force: true });
  }
}

/**
 * Makes `dataDir` a PGlite database when it is not one yet: a copy of the template, or (no template can
 * be had) initdb in a worker that ends. Returns what it did.
 */
export async function preparePgliteDataDir(
  dataDir: string,
  templateDir: string = defaultTemplateDir(),
): Promise<'existing' | 'template' | 'initdb'> {
  if (existsSync(path.join(dataDir, 'PG_VERSION'))) return 'existing';
  // Something that is not a database: left to PGlite, which says what is wrong with it.
  if (existsSync(dataDir) && readdirSync(dataDir).length > 0) return 'existing';
  const marker = await ensureTemplate(templateDir);
  if (marker !== null) {
    const copying = `${dataDir}.copying-${process.pid}`;
    try {
      cpSync(templateDir, copying, { recursive: true, filter: (src) => path.basename(src) !== MARKER });
      if (matches(copying, marker)) {
        rmSync(dataDir, { recursive: true, force: true });
        renameSync(copying, dataDir);
        return 'template';
      }
    } catch {
      // fall through to initdb
    } finally {
      rmSync(copying, { recursive: true, force: true });
    }
  }
  await initInWorker(dataDir);
  return 'initdb';
}
