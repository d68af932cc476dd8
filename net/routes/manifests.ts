import { createHash } from 'node:crypto';
import { readFile, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { isSafeManifestPath } from '../../world/manifest-paths.ts';
import { type HttpRequest, type HttpResponse, notFound, type RouteDef } from '../http/types.ts';

/**
 * GET /manifests/* (contract §3.5): the cached manifests, with a strong ETag (hash of the contents), 304 on a
 * matching If-None-Match, and no way out of the directory: traversal, encoded dots, hidden files, non-JSON
 * and symlinks whose target leaves the directory are all 404.
 */

const CACHE_CONTROL = 'public, max-age=300, must-revalidate';
/** Enough rounds to undo any realistic multiple encoding; more is refused. */
const MAX_DECODE_ROUNDS = 3;

interface Cached {
  mtimeMs: number;
  size: number;
  etag: string;
  body: Buffer;
}

export function manifestRoutes(manifestsDir: string): RouteDef[] {
  const root = path.resolve(manifestsDir);
  const cache = new Map<string, Cached>();

  const handler = async (req: HttpRequest): Promise<HttpResponse> => {
    const rel = fullyDecoded(req.params['*'] ?? '');
    if (rel === undefined || !isSafeManifestPath(rel)) throw notFound();
    const file = await resolveInside(root, rel);
    if (file === undefined) throw notFound();
    const entry = await load(file, cache);
    if (entry === undefined) throw notFound();
    const headers = { 'Cache-Control': CACHE_CONTROL, ETag: entry.etag };
    if (matches(req.headers['if-none-match'], entry.etag)) return { status: 304, headers };
    return { status: 200, headers: { ...headers, 'Content-Type': 'application/json' }, body: entry.body };
  };

  return [{ method: 'GET', path: '/manifests/*', handler, auth: 'none', rateLimit: 'rest' }];
}

/** Decode until stable, so `%252e%252e` cannot smuggle `..` past the checks; undefined when malformed. */
function fullyDecoded(raw: string): string | undefined {
  let current = raw;
  for (let i = 0; i < MAX_DECODE_ROUNDS; i++) {
    let next: string;
    try {
      next = decodeURIComponent(current);
    } catch {
      return undefined;
    }
    if (next === current) return current;
    current = next;
  }
  return current.includes('%') ? undefined : current;
}

/** The real path of `rel` if it is a regular file whose real location is inside the real root. */
async function resolveInside(root: string, rel: string): Promise<string | undefined> {
  try {
    const realRoot = await realpath(root);
    const real = await realpath(path.resolve(root, rel));
    if (!real.startsWith(realRoot + path.sep)) return undefined;
    return (await stat(real)).isFile() ? real : undefined;
  } catch {
    return undefined;
  }
}

async function load(file: string, cache: Map<string, Cached>): Promise<Cached | undefined> {
  try {
    const s = await stat(file);
    const hit = cache.get(file);
    if (hit && hit.mtimeMs === s.mtimeMs && hit.size === s.size) return hit;
    const body = await readFile(file);
    const etag = `"${createHash('sha256').update(body).digest('base64url')}"`;
    const entry = { mtimeMs: s.mtimeMs, size: s.size, etag, body };
    cache.set(file, entry);
    return entry;
  } catch {
    return undefined;
  }
}

/** If-None-Match holds a list of tags or `*`; comparison is weak (a `W/` prefix is ignored), per RFC 9110. */
function matches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((t) => t.trim().replace(/^W\//, '') === etag);
}
