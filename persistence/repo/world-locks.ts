import type { SqlClient, SqlTx } from '../sql.ts';

/**
 * Which world holds each character ("characterLocks", migration 009; docs/scaling.md). A world takes a
 * character when it enters it there, renews its rows while it stays, and deletes them when it leaves;
 * a row past its expiry is free for any world. Writes of a world that runs with locks check, in their
 * own transaction, that the rows are still theirs (FOR SHARE: a world taking the row over waits until
 * that write committed, so nothing a stale world writes can land after the new holder loaded it).
 */

const json = (v: unknown) => JSON.stringify(v);

/** Takes each character that is free, expired or already this world's; returns the taken ids. */
export async function claim(
  db: SqlClient,
  worldId: number,
  ids: readonly string[],
  ttlMs: number,
): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db.query<{ characterId: string }>(
    `INSERT INTO "characterLocks" ("characterId", "worldId", "expiresAt")
     SELECT id, $2::integer, now() + $3::float8 * interval '1 millisecond'
     FROM (SELECT DISTINCT jsonb_array_elements_text($1::text::jsonb) AS id) r ORDER BY id
     ON CONFLICT ("characterId") DO UPDATE SET "worldId" = EXCLUDED."worldId", "expiresAt" = EXCLUDED."expiresAt"
     WHERE "characterLocks"."worldId" = EXCLUDED."worldId" OR "characterLocks"."expiresAt" <= now()
     RETURNING "characterId"`,
    [json(ids), worldId, ttlMs],
  );
  return new Set(rows.map((r) => String(r.characterId)));
}

/** Pushes this world's unexpired rows forward; returns the ids it no longer holds (expired or taken). */
export async function renew(
  db: SqlClient,
  worldId: number,
  ids: readonly string[],
  ttlMs: number,
): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db.query<{ characterId: string }>(
    `UPDATE "characterLocks" SET "expiresAt" = now() + $3::float8 * interval '1 millisecond'
     WHERE "characterId" IN (SELECT jsonb_array_elements_text($1::text::jsonb))
       AND "worldId" = $2::integer AND "expiresAt" > now()
     RETURNING "characterId"`,
    [json(ids), worldId, ttlMs],
  );
  const kept = new Set(rows.map((r) => String(r.characterId)));
  return ids.filter((id) => !kept.has(id));
}

/** Lets go of this world's rows (a row another world took meanwhile is left alone). */
export async function release(db: SqlClient, worldId: number, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.query(
    `DELETE FROM "characterLocks"
     WHERE "characterId" IN (SELECT jsonb_array_elements_text($1::text::jsonb)) AND "worldId" = $2::integer`,
    [json(ids), worldId],
  );
}

/** The world holding each character now (unexpired rows only). */
export async function holders(db: SqlClient, ids: readonly string[]): Promise<Map<string, number>> {
  if (ids.length === 0) return new Map();
  const rows = await db.query<{ characterId: string; worldId: number }>(
    `SELECT "characterId", "worldId" FROM "characterLocks"
     WHERE "characterId" IN (SELECT jsonb_array_elements_text($1::text::jsonb)) AND "expiresAt" > now()`,
    [json(ids)],
  );
  return new Map(rows.map((r) => [String(r.characterId), Number(r.worldId)]));
}

/** Inside a write: the ids among these that this world holds, their rows share-locked to the commit. */
export async function heldForWrite(tx: SqlTx, worldId: number, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await tx.query<{ characterId: string }>(
    `SELECT "characterId" FROM "characterLocks"
     WHERE "characterId" IN (SELECT jsonb_array_elements_text($1::text::jsonb))
       AND "worldId" = $2::integer AND "expiresAt" > now()
     ORDER BY "characterId" FOR SHARE`,
    [json([...ids].sort()), worldId],
  );
  return new Set(rows.map((r) => String(r.characterId)));
}
