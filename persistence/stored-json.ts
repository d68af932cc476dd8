import type { z } from 'zod';
import { jsonTextDepth, MAX_JSON_DEPTH, MAX_STORED_JSON_BYTES, TOO_DEEP } from '../lib/json-limits.ts';

/**
 * JSON columns read back from the database (agent goals, quest progress, death locks' items). A row may
 * hold anything: written before the limits existed, by hand, or by an older version. Each is read as text
 * (`col::text`, so no driver parses it first), checked against the JSON limits (lib/json-limits.ts) before
 * JSON.parse, then against its shape. A row that fails is set aside, never loaded: the caller treats it as
 * absent (or refuses the one operation that needs it) and reports it once, naming the row, through an
 * OnQuarantine. The row itself stays in the database until the game writes over it.
 */

/** A stored value that was set aside: where it is, and why. */
export interface Quarantined {
  table: string;
  column: string;
  /** The row's key (a character id, a death lock id). */
  row: string;
  reason: string;
}

export type OnQuarantine = (q: Quarantined) => void;

export const ignoreQuarantine: OnQuarantine = () => {};

export type StoredJson<T> = { ok: true; value: T } | { ok: false; reason: string };

export function readStoredJson<T>(text: string, schema: z.ZodType<T>): StoredJson<T> {
  const bytes = Buffer.byteLength(text);
  if (bytes > MAX_STORED_JSON_BYTES) {
    return { ok: false, reason: `${bytes} bytes, over the limit of ${MAX_STORED_JSON_BYTES}` };
  }
  if (jsonTextDepth(text) > MAX_JSON_DEPTH) return { ok: false, reason: TOO_DEEP };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, reason: 'not valid JSON' };
  }
  const parsed = schema.safeParse(value);
  if (parsed.success) return { ok: true, value: parsed.data };
  const issue = parsed.error.issues[0];
  const where = issue && issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
  return { ok: false, reason: `not the stored shape (${where}${issue?.message ?? 'invalid'})` };
}
