import { defineSlice } from './slice.ts';

const json = (v: unknown) => JSON.stringify(v);

/** The home teleport's cooldown: when the next cast may start. */
export const homeTeleportSlice = defineSlice({
  name: 'homeTeleport',
  async load(tx, characterIds) {
    const rows = await tx.query<{ characterId: string; readyAt: Date }>(
      `SELECT "characterId", "readyAt" FROM "homeTeleport"
       WHERE "characterId" IN (SELECT jsonb_array_elements_text($1::text::jsonb))`,
      [json(characterIds)],
    );
    return new Map(rows.map((r) => [r.characterId, { readyAtMs: new Date(r.readyAt).getTime() }]));
  },
  async save(tx, rows) {
    if (rows.length === 0) return;
    await tx.query(
      `INSERT INTO "homeTeleport" ("characterId", "readyAt")
       SELECT r.c, to_timestamp(r.t / 1000.0) FROM jsonb_to_recordset($1::text::jsonb) AS r(c text, t double precision)
       ON CONFLICT ("characterId") DO UPDATE SET "readyAt" = EXCLUDED."readyAt"`,
      [json(rows.map((r) => ({ c: r.characterId, t: r.value.readyAtMs })))],
    );
  },
});
