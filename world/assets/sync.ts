import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { atomicWrite, type FetchLogger } from '../fetch.ts';
import { isSafeRelativePath } from '../manifest-paths.ts';
import { fileExists } from '../read-manifest.ts';

/**
 * The asset sync build step: mirror the models the asset host lists in `${cdn}/models/index.json` (a JSON
 * list of paths relative to `${cdn}/models/`, or `{files: [...]}`) into the local models folder, with
 * ETag revalidation like the manifests. Files the host no longer lists are left in place.
 */

export interface SyncOptions {
  cdnUrl: string;
  modelsDir: string;
  logger: FetchLogger;
  fetchImpl?: typeof fetch;
  timeoutMs?: number;
}

export interface SyncResult {
  /** `unreachable`: the host did not answer; `unlisted`: it has no usable index; `synced`: done. */
  status: 'synced' | 'unreachable' | 'unlisted';
  downloaded: string[];
  failed: string[];
}

const indexSchema = z.union([z.array(z.string()), z.object({ files: z.array(z.string()) })]);
const ETAGS = '.etags.json';

export async function syncModels(opts: SyncOptions): Promise<SyncResult> {
  const fetchImpl = opts.fetchImpl ?? fetch;
  const timeoutMs = opts.timeoutMs ?? 60_000;
  const base = `${opts.cdnUrl.replace(/\/+$/, '')}/models/`;
  const get = (rel: string, headers: Record<string, string> = {}) =>
    fetchImpl(base + rel.split('/').map(encodeURIComponent).join('/'), {
      headers,
      signal: AbortSignal.timeout(timeoutMs),
    }).catch((err: unknown) => err as Error);

  const indexRes = await get('index.json');
  if (indexRes instanceof Error) {
    opts.logger.warn(
      `assets: asset host ${opts.cdnUrl} unreachable (${indexRes.message}); models not synced`,
    );
    return { status: 'unreachable', downloaded: [], failed: [] };
  }
  let list: string[] | undefined;
  if (indexRes.status === 200) {
    const parsed = indexSchema.safeParse(await indexRes.json().catch(() => undefined));
    if (parsed.success) list = Array.isArray(parsed.data) ? parsed.data : parsed.data.files;
  } else {
    await indexRes.body?.cancel();
  }
  if (!list) {
    opts.logger.warn(`assets: ${base}index.json is missing or not a list; models not synced`);
    return { status: 'unlisted', downloaded: [], failed: [] };
  }

  const etagFile = path.join(opts.modelsDir, ETAGS);
  const etags: Record<string, string> = await readFile(etagFile, 'utf8')
    .then((t) => z.record(z.string(), z.string()).parse(JSON.parse(t)))
    .catch(() => ({}));
  const downloaded: string[] = [];
  const failed: string[] = [];
  for (const rel of list) {
    if (!isSafeRelativePath(rel, '.glb')) {
      opts.logger.warn(`assets: ignoring unsafe or non-.glb entry ${JSON.stringify(rel)}`);
      continue;
    }
    const target = path.join(opts.modelsDir, rel);
    const tag = etags[rel];
    const headers: Record<string, string> = tag && (await fileExists(target)) ? { 'if-none-match': tag } : {};
    const res = await get(rel, headers);
    if (res instanceof Error || (res.status !== 200 && res.status !== 304)) {
      failed.push(rel);
      opts.logger.warn(`assets: ${rel}: ${res instanceof Error ? res.message : `HTTP ${res.status}`}`);
      if (!(res instanceof Error)) await res.body?.cancel();
      continue;
    }
    if (res.status === 304) continue;
    const body = Buffer.from(await res.arrayBuffer());
    await atomicWrite(target, body);
    const etag = res.headers.get('etag');
    if (etag) etags[rel] = etag;
    downloaded.push(rel);
  }
  await atomicWrite(etagFile, JSON.stringify(etags, null, 2));
  opts.logger.info(`assets: ${downloaded.length} models downloaded, ${failed.length} failed, from ${base}`);
  return { status: 'synced', downloaded, failed };
}
