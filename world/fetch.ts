import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import type { Config } from '../lib/config.ts';
import { isSafeManifestPath, KNOWN_MANIFEST_FILES } from './manifest-paths.ts';
import { fileExists, listJson, parseJson } from './read-manifest.ts';
import { MANIFEST_SCHEMAS, REQUIRED_MANIFESTS } from './schemas/index.ts';
import { itemsFileSchema } from './schemas/items.ts';

/**
 * Manifest fetch and cache (spec "Manifest loading"). Production asks the asset host for every file at
 * start-up with If-None-Match and rewrites only what changed; development fetches only when there are no
 * local manifests, falling back to PRODUCTION_CDN_URL when the local host is down; SKIP_MANIFESTS skips.
 * A download that is not valid JSON or fails its schema never replaces the cached file.
 */

export interface FetchLogger {
  info(msg: string): void;
  warn(msg: string): void;
  error(msg: string): void;
}

export interface EnsureManifestsOptions {
  config: Pick<Config, 'isProduction' | 'manifestsDir' | 'skipManifests' | 'urls'>;
  logger: FetchLogger;
  fetchImpl?: typeof fetch;
  /** Per-request time limit (default 10 s). */
  timeoutMs?: number;
}

export interface EnsureManifestsResult {
  source: 'cache' | 'fetched' | 'skipped';
  /** Files written this run, relative to the manifests directory. */
  updated: string[];
}

export const ETAGS_FILE = '.etags.json';
const etagsSchema = z.record(z.string(), z.string());
const indexSchema = z.union([z.array(z.string()), z.object({ files: z.array(z.string()) })]);

class HostDown extends Error {}

export async function ensureManifests(opts: EnsureManifestsOptions): Promise<EnsureManifestsResult> {
  const { config, logger } = opts;
  if (config.skipManifests) {
    logger.info('manifests: SKIP_MANIFESTS=true, using local files as they are');
    return { source: 'skipped', updated: [] };
  }
  const dir = config.manifestsDir;
  if (!config.isProduction) {
    if (await hasLocalManifests(dir)) return { source: 'cache', updated: [] };
    logger.info(`manifests: none in ${dir}, fetching from ${config.urls.cdn}`);
  }
  const hosts = [config.urls.cdn];
  if (!config.isProduction && config.urls.productionCdn && config.urls.productionCdn !== config.urls.cdn) {
    hosts.push(config.urls.productionCdn);
  }
  for (const host of hosts) {
    try {
      const updated = await syncFrom(host, opts);
      logger.info(`manifests: ${updated.length} updated from ${host}`);
      return { source: 'fetched', updated };
    } catch (err) {
      if (!(err instanceof HostDown)) throw err;
      logger.warn(`manifests: asset host ${host} unreachable (${err.message})`);
    }
  }
  logger.warn(`manifests: using the cached copy in ${dir}`);
  return { source: 'cache', updated: [] };
}

/** The required manifests (and some item file) are all there. */
export async function hasLocalManifests(dir: string): Promise<boolean> {
  for (const f of REQUIRED_MANIFESTS) if (!(await fileExists(path.join(dir, f)))) return false;
  if (await fileExists(path.join(dir, 'items.json'))) return true;
  return ((await listJson(path.join(dir, 'items'))) ?? []).length > 0;
}

async function syncFrom(host: string, opts: EnsureManifestsOptions): Promise<string[]> {
  const dir = opts.config.manifestsDir;
  const fetchImpl = opts.fetchImpl ?? fetch;
  const timeoutMs = opts.timeoutMs ?? 10_000;
  const base = `${host.replace(/\/+$/, '')}/manifests/`;
  const get = async (rel: string, headers: Record<string, string> = {}) => {
    try {
      return await fetchImpl(base + rel, { headers, signal: AbortSignal.timeout(timeoutMs) });
    } catch (err) {
      return err as Error;
    }
  };

  // The index tells whether the host is up at all; a network error or time-out here means it is down.
  const indexRes = await get('index.json');
  if (indexRes instanceof Error) throw new HostDown(indexRes.message);
  const files = await fileList(indexRes, opts.logger);

  await mkdir(dir, { recursive: true });
  const etags = await readEtags(dir);
  const updated: string[] = [];
  let reachable = 0;
  let failures = 0;
  const work = async (rel: string) => {
    const target = path.join(dir, rel);
    const cached = await fileExists(target);
    const headers: Record<string, string> = {};
    const tag = etags[rel];
    if (cached && tag) headers['if-none-match'] = tag;
    const res = await get(rel, headers);
    if (res instanceof Error) {
      failures++;
      opts.logger.warn(
        `manifests: ${rel}: ${res.name === 'TimeoutError' ? 'timed out' : res.message}; keeping cache`,
      );
      return;
    }
    reachable++;
    if (res.status === 304) return;
    if (res.status === 404) return; // Not offered by this host: optional manifests may be absent.
    if (res.status !== 200) {
      opts.logger.warn(`manifests: ${rel}: HTTP ${res.status}; keeping cache`);
      return;
    }
    let text: string;
    try {
      text = await res.text();
    } catch (err) {
      opts.logger.warn(`manifests: ${rel}: ${(err as Error).message}; keeping cache`);
      return;
    }
    const problem = validate(rel, text);
    if (problem) {
      opts.logger.warn(`manifests: ${rel}: downloaded copy rejected (${problem}); keeping cache`);
      return;
    }
    await atomicWrite(target, text);
    const etag = res.headers.get('etag');
    if (etag) etags[rel] = etag;
    else delete etags[rel];
    updated.push(rel);
  };
  await pool(files, 4, work);
  if (reachable === 0 && failures > 0) throw new HostDown('no manifest could be downloaded');
  await atomicWrite(path.join(dir, ETAGS_FILE), JSON.stringify(etags, null, 2));
  return updated.sort();
}

/** `index.json` when the host offers one (a list of relative paths), else the known list. */
async function fileList(res: Response, logger: FetchLogger): Promise<readonly string[]> {
  if (res.status !== 200) {
    await res.body?.cancel();
    return KNOWN_MANIFEST_FILES;
  }
  const parsed = parseJson(await res.text(), 'index.json');
  const index = parsed.ok ? indexSchema.safeParse(parsed.value) : undefined;
  if (!index?.success) {
    logger.warn('manifests: index.json is not a list of files; asking for the known manifests');
    return KNOWN_MANIFEST_FILES;
  }
  const list = Array.isArray(index.data) ? index.data : index.data.files;
  const safe = list.filter((f) => f !== 'index.json' && isSafeManifestPath(f));
  if (safe.length < list.length) logger.warn('manifests: index.json lists unsafe paths; they are ignored');
  return [...new Set(safe)];
}

/** Why a downloaded manifest must not replace the cache, or undefined when it is good. */
function validate(rel: string, text: string): string | undefined {
  const parsed = parseJson(text, rel);
  if (!parsed.ok) return parsed.problem;
  const schema = rel.startsWith('items/') || rel === 'items.json' ? itemsFileSchema : MANIFEST_SCHEMAS[rel];
  if (!schema) return undefined;
  const result = schema.safeParse(parsed.value);
  return result.success ? undefined : `schema: ${result.error.issues[0]?.message ?? 'invalid'}`;
}

/** Write to a temp file in the same directory, then rename: readers see the old or the new file, never half. */
export async function atomicWrite(target: string, text: string | Uint8Array): Promise<void> {
  await mkdir(path.dirname(target), { recursive: true });
  const tmp = `${target}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await writeFile(tmp, text);
    await rename(tmp, target);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
}

async function readEtags(dir: string): Promise<Record<string, string>> {
  try {
    const parsed = etagsSchema.safeParse(JSON.parse(await readFile(path.join(dir, ETAGS_FILE), 'utf8')));
    return parsed.success ? parsed.data : {};
  } catch {
    return {};
  }
}

async function pool<T>(items: readonly T[], size: number, fn: (t: T) => Promise<void>): Promise<void> {
  let next = 0;
  const runners = Array.from({ length: Math.min(size, items.length) }, async () => {
    while (next < items.length) await fn(items[next++] as T);
  });
  await Promise.all(runners);
}
