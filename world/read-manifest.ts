import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { z } from 'zod';

/** Reading one manifest file: JSON parse with a position, then schema validation with named entries. */

export type ReadResult<T> = { ok: true; data: T } | { ok: false; missing: boolean; problems: string[] };

export async function fileExists(file: string): Promise<boolean> {
  try {
    await readFile(file);
    return true;
  } catch {
    return false;
  }
}

/** `.json` files directly inside `dir` (sorted, so loading order never depends on the file system). */
export async function listJson(dir: string): Promise<string[] | undefined> {
  try {
    const names = await readdir(dir);
    return names.filter((n) => n.endsWith('.json')).sort();
  } catch {
    return undefined;
  }
}

/** Parse JSON; on failure the message names the line and column of the fault. */
export function parseJson(
  text: string,
  name: string,
): { ok: true; value: unknown } | { ok: false; problem: string } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (err) {
    const msg = (err as Error).message;
    const m = /position (\d+)/.exec(msg);
    let where = '';
    if (m) {
      const pos = Number(m[1]);
      const before = text.slice(0, pos).split('\n');
      where = ` at line ${before.length} column ${(before.at(-1)?.length ?? 0) + 1}`;
    }
    return { ok: false, problem: `${name}: malformed JSON${where}: ${msg}` };
  }
}

/** Read and validate `rel` under `dir`. */
export async function readManifest<S extends z.ZodType>(
  dir: string,
  rel: string,
  schema: S,
): Promise<ReadResult<z.infer<S>>> {
  let text: string;
  try {
    text = await readFile(path.join(dir, rel), 'utf8');
  } catch (err) {
    const missing = (err as NodeJS.ErrnoException).code === 'ENOENT';
    return { ok: false, missing, problems: [`${rel}: ${missing ? 'missing' : (err as Error).message}`] };
  }
  const parsed = parseJson(text, rel);
  if (!parsed.ok) return { ok: false, missing: false, problems: [parsed.problem] };
  const result = schema.safeParse(parsed.value);
  if (result.success) return { ok: true, data: result.data };
  return {
    ok: false,
    missing: false,
    problems: result.error.issues.map((issue) => describeIssue(rel, parsed.value, issue)),
  };
}

/**
 * `stores.json: entry "general_store" (0), field items[3].price: ...`. The entry is the outermost object
 * on the issue's path that has an `id` (or, for keyed files, its key); the rest of the path is the field.
 */
export function describeIssue(file: string, root: unknown, issue: z.core.$ZodIssue): string {
  const segs = issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p));
  let node: unknown = root;
  let entry: string | undefined;
  let fieldStart = 0;
  for (let i = 0; i < segs.length; i++) {
    node =
      node && typeof node === 'object'
        ? (node as Record<string | number, unknown>)[segs[i] as string]
        : undefined;
    const id = node && typeof node === 'object' ? (node as { id?: unknown }).id : undefined;
    if (typeof id === 'string' || typeof id === 'number') {
      entry = `entry "${id}" (${formatPath(segs.slice(0, i + 1))})`;
      fieldStart = i + 1;
      break;
    }
  }
  if (entry === undefined && segs.length > 0) {
    // No id on the way: name the entry by its index or key.
    const firstIndex = segs.findIndex((s) => typeof s === 'number');
    const cut = firstIndex >= 0 ? firstIndex + 1 : 1;
    entry = `entry ${formatPath(segs.slice(0, cut))}`;
    fieldStart = cut;
  }
  const field = formatPath(segs.slice(fieldStart));
  return `${file}: ${entry ?? 'top level'}${field ? `, field ${field}` : ''}: ${issue.message}`;
}

function formatPath(segs: readonly (string | number)[]): string {
  let out = '';
  for (const s of segs) out += typeof s === 'number' ? `[${s}]` : out ? `.${s}` : s;
  return out;
}
