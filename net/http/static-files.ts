import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';

/**
 * Serves a client build from a directory (the specification's `public/`). GETs of paths that are not
 * files and look like client routes (no file extension, not under /api, /manifests or /ws) get
 * index.html so the frontend router can take over. Paths are resolved inside the root only. Every
 * request reads the disk: a build made while the server runs (even into a directory that did not exist
 * at start) is served at once, and nothing is kept in memory.
 */

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.wasm': 'application/wasm',
  '.glb': 'model/gltf-binary',
  '.gltf': 'model/gltf+json',
  '.mp3': 'audio/mpeg',
  '.ogg': 'audio/ogg',
  '.wav': 'audio/wav',
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
  '.xml': 'application/xml',
  '.webmanifest': 'application/manifest+json',
};

export function contentTypeFor(file: string): string {
  return CONTENT_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
}

export interface StaticFile {
  body: Buffer;
  contentType: string;
  cacheControl: string;
}

const NOT_FALLBACK = /^\/(?:api|manifests|ws)(?:\/|$)/;

export class StaticFiles {
  private readonly root: string;

  private constructor(root: string) {
    this.root = root;
  }

  /** The directory need not exist yet: until a build creates it, every lookup is a 404. */
  static open(dir: string): StaticFiles {
    return new StaticFiles(path.resolve(dir));
  }

  /** Whether the directory holds a build now (for the start-up log line). */
  present(): boolean {
    return existsSync(path.join(this.root, 'index.html'));
  }

  /** `decodedPath` is the URL path after percent-decoding. Undefined means 404. */
  async lookup(decodedPath: string): Promise<StaticFile | undefined> {
    if (decodedPath.includes('\0')) return undefined;
    const file = this.resolveInside(decodedPath === '/' ? '/index.html' : decodedPath);
    if (file !== undefined) {
      const found = await this.read(file);
      if (found !== undefined) return found;
    }
    const last = decodedPath.slice(decodedPath.lastIndexOf('/') + 1);
    if (NOT_FALLBACK.test(decodedPath) || last.includes('.')) return undefined;
    return this.read(path.join(this.root, 'index.html'));
  }

  private resolveInside(urlPath: string): string | undefined {
    const full = path.resolve(this.root, `.${path.posix.normalize(`/${urlPath}`)}`);
    return full.startsWith(this.root + path.sep) ? full : undefined;
  }

  private async read(file: string): Promise<StaticFile | undefined> {
    try {
      const s = await stat(file);
      if (!s.isFile()) return undefined;
      const body = await readFile(file);
      const isHtml = file.endsWith('.html');
      return {
        body,
        contentType: contentTypeFor(file),
        // HTML must revalidate so a deploy is picked up; other assets may be cached briefly.
        cacheControl: isHtml ? 'no-cache' : 'public, max-age=300',
      };
    } catch {
      return undefined;
    }
  }
}
