import type { CharacterSlices } from '../../ecs/core/character-state.ts';
import { defineSlice } from './slice.ts';

const json = (v: unknown) => JSON.stringify(v);
type QuestSlice = NonNullable<CharacterSlices['quests']>;

/** Quest progress and quest points: one row per character, the progress as JSON keyed by quest id. */
export const questsSlice = defineSlice({
  name: 'quests',
  async load(tx, characterIds) {
    const rows = await tx.query<{ characterId: string; questPoints: number; quests: unknown }>(
      `SELECT "characterId", "questPoints", quests FROM "characterQuests"
       WHERE "characterId" IN (SELECT jsonb_array_elements_text($1::text::jsonb))`,
      [json(characterIds)],
    );
    return new Map(
      rows.map((r) => {
        const quests = (
          typeof r.quests === 'string' ? JSON.parse(r.quests) : r.quests
        ) as QuestSlice['quests'];
        return [r.characterId, { points: Number(r.questPoints), quests }];
      }),
    );
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
