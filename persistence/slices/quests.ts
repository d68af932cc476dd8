import { z } from 'zod';
import type { CharacterSlices } from '../../ecs/core/character-state.ts';
import { readStoredJson } from '../stored-json.ts';
import { defineSlice } from './slice.ts';

const json = (v: unknown) => JSON.stringify(v);
type QuestSlice = NonNullable<CharacterSlices['quests']>;

/** The progress column as the slice writes it: quest id -> status, stage, progress. */
const storedQuests: z.ZodType<QuestSlice['quests']> = z.record(
  z.string(),
  z.object({
    status: z.enum(['in_progress', 'completed']),
    stage: z.number().int().min(0),
    progress: z.number(),
  }),
);

/**
 * Quest progress and quest points: one row per character, the progress as JSON keyed by quest id. A row
 * whose progress cannot be loaded is set aside (the character has no quest slice; the row stays until a
 * quest is saved over it).
 */
export const questsSlice = defineSlice({
  name: 'quests',
  async load(tx, characterIds, onQuarantine) {
    const rows = await tx.query<{ characterId: string; questPoints: number; quests: string }>(
      `SELECT "characterId", "questPoints", quests::text AS quests FROM "characterQuests"
       WHERE "characterId" IN (SELECT jsonb_array_elements_text($1::text::jsonb))`,
      [json(characterIds)],
    );
    const out = new Map<string, QuestSlice>();
    for (const r of rows) {
      const quests = readStoredJson(r.quests, storedQuests);
      if (quests.ok) out.set(r.characterId, { points: Number(r.questPoints), quests: quests.value });
      else {
        const row = r.characterId;
        onQuarantine({ table: 'characterQuests', column: 'quests', row, reason: quests.reason });
      }
    }
    return out;
  },
  async save(tx, rows) {
    if (rows.length === 0) return;
    await tx.query(
      `INSERT INTO "characterQuests" ("characterId", "questPoints", quests)
       SELECT r.c, r.p, r.q FROM jsonb_to_recordset($1::text::jsonb) AS r(c text, p integer, q jsonb)
       ON CONFLICT ("characterId") DO UPDATE SET "questPoints" = EXCLUDED."questPoints", quests = EXCLUDED.quests`,
      [json(rows.map((r) => ({ c: r.characterId, p: r.value.points, q: r.value.quests })))],
    );
  },
});
