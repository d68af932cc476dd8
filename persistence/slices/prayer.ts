import { defineSlice } from './slice.ts';

const json = (v: unknown) => JSON.stringify(v);

/** Prayer points left (active prayers are not kept). */
export const prayerSlice = defineSlice({
  name: 'prayer',
  async load(tx, characterIds) {
    const rows = await tx.query<{ characterId: string; points: number }>(
      `SELECT "characterId", points FROM "prayerPoints"
       WHERE "characterId" IN (SELECT jsonb_array_elements_text($1::text::jsonb))`,
      [json(characterIds)],
    );
    return new Map(rows.map((r) => [r.characterId, { points: Number(r.points) }]));
  },
  async save(tx, rows) {
    if (rows.length === 0) return;
    await tx.query(
      `INSERT INTO "prayerPoints" ("characterId", points)
       SELECT r.c, r.p FROM jsonb_to_recordset($1::text::jsonb) AS r(c text, p integer)
       ON CONFLICT ("characterId") DO UPDATE SET points = EXCLUDED.points`,
      [json(rows.map((r) => ({ c: r.characterId, p: r.value.points })))],
    );
  },
});
