import { defineSlice } from './slice.ts';

const json = (v: unknown) => JSON.stringify(v);

/**
 * NPC kill counts by manifest id ("npcKills" rows): the totals the character carries, written with its
 * snapshots (so in the save interval's batches, not one write per kill).
 */
export const npcKillsSlice = defineSlice({
  name: 'npcKills',
  async load(tx, characterIds) {
    const rows = await tx.query<{ characterId: string; npcId: string; count: number }>(
      `SELECT "characterId", "npcId", count FROM "npcKills"
       WHERE "characterId" IN (SELECT jsonb_array_elements_text($1::text::jsonb))
       ORDER BY "characterId", "npcId"`,
      [json(characterIds)],
    );
    const out = new Map<string, Record<string, number>>();
    for (const r of rows) {
      const kills = out.get(r.characterId) ?? {};
      kills[r.npcId] = Number(r.count);
      out.set(r.characterId, kills);
    }
    return out;
  },
  async save(tx, rows) {
    const flat = rows.flatMap((r) =>
      Object.entries(r.value)
        .filter(([, n]) => n > 0)
        .map(([npcId, n]) => ({ c: r.characterId, n: npcId, k: n })),
    );
    if (flat.length === 0) return;
    await tx.query(
      `INSERT INTO "npcKills" ("characterId", "npcId", count)
       SELECT r.c, r.n, r.k FROM jsonb_to_recordset($1::text::jsonb) AS r(c text, n text, k integer)
       ON CONFLICT ("characterId", "npcId") DO UPDATE SET count = GREATEST("npcKills".count, EXCLUDED.count)`,
      [json(flat)],
    );
  },
});
