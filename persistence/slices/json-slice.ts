import type { CharacterSlices } from '../../ecs/core/character-state.ts';
import type { PersistFace } from '../../ecs/core/faces/persist.ts';
import { readStoredJson } from '../stored-json.ts';
import { type CharacterSlice, defineSlice } from './slice.ts';

const json = (v: unknown) => JSON.stringify(v);

/**
 * A feature's JSON state (its persist face) as a slice of the "featureState" table: one query per slice
 * for every character loaded, each value read as text and checked like every stored JSON value (the
 * limits, then the face's schema: persistence/stored-json.ts). A value that fails is set aside, so the
 * feature starts from its default, and reported; it never reaches the tick.
 */
export function jsonSlice<K extends keyof CharacterSlices>(face: PersistFace<K>): CharacterSlice<K> {
  return defineSlice({
    name: face.slice,
    async load(tx, characterIds, onQuarantine) {
      const rows = await tx.query<{ characterId: string; value: string }>(
        `SELECT "characterId", value::text AS value FROM "featureState"
         WHERE slice = $1 AND "characterId" IN (SELECT jsonb_array_elements_text($2::text::jsonb))`,
        [face.slice, json(characterIds)],
      );
      const out = new Map<string, CharacterSlices[K]>();
      for (const r of rows) {
        const read = readStoredJson(r.value, face.schema);
        if (read.ok) out.set(r.characterId, read.value as CharacterSlices[K]);
        else
          onQuarantine({
            table: 'featureState',
            column: 'value',
            row: `${r.characterId}, ${face.slice}`,
            reason: read.reason,
          });
      }
      return out;
    },
    async save(tx, rows) {
      if (rows.length === 0) return;
      await tx.query(
        `INSERT INTO "featureState" ("characterId", slice, value)
         SELECT r.c, $1, r.v FROM jsonb_to_recordset($2::text::jsonb) AS r(c text, v jsonb)
         ON CONFLICT ("characterId", slice) DO UPDATE SET value = EXCLUDED.value`,
        [face.slice, json(rows.map((r) => ({ c: r.characterId, v: r.value })))],
      );
    },
  });
}
