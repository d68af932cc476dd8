import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { definePersist } from '../../ecs/core/faces/persist.ts';
import type { PersistencePort } from '../../persistence/port.ts';
import { jsonSlice } from '../../persistence/slices/json-slice.ts';
import type { SqlClient } from '../../persistence/sql.ts';
import { ignoreQuarantine, type Quarantined } from '../../persistence/stored-json.ts';
import { makeCharacter } from '../helpers/characters.ts';

/**
 * A feature's JSON state in "featureState" (jsonSlice over a persist face): round trip, upsert, a stored
 * value that no longer matches the schema set aside and reported (as every stored JSON value), deletion with the character. Run by
 * persistence.contract.ts on every driver. The face here borrows prayer's slice shape: the mechanism is
 * what is tested, whichever feature uses it.
 */
export function featureStateContract(get: () => { port: PersistencePort; sql: SqlClient }): void {
  describe('feature state (JSON slices)', () => {
    let port: PersistencePort;
    let sql: SqlClient;
    beforeAll(() => {
      ({ port, sql } = get());
    });
    const face = definePersist({
      slice: 'prayer',
      schema: z.object({ points: z.number().int().min(0).max(99) }),
    });
    const slice = jsonSlice(face);

    const character = async () => {
      const name = `Fs${randomUUID().slice(0, 8)}`;
      const account = (await port.createAnonymousUser(`u-${name}`)).id;
      return (await port.createCharacter(makeCharacter(account, name))).id;
    };

    it('saves, loads and overwrites one value per character and slice', async () => {
      const [a, b] = [await character(), await character()];
      await sql.transaction((tx) =>
        slice.save(tx, [
          { characterId: a, value: { points: 7 } },
          { characterId: b, value: { points: 0 } },
        ]),
      );
      await sql.transaction((tx) => slice.save(tx, [{ characterId: a, value: { points: 9 } }]));
      const loaded = await sql.transaction((tx) => slice.load(tx, [a, b, randomUUID()], ignoreQuarantine));
      expect([...loaded].sort()).toEqual(
        [
          ...[
            [a, { points: 9 }],
            [b, { points: 0 }],
          ],
        ].sort(),
      );
    });

    it('leaves out a stored value that fails the schema, and says which character and slice', async () => {
      const [good, bad] = [await character(), await character()];
      await sql.transaction((tx) => slice.save(tx, [{ characterId: good, value: { points: 3 } }]));
      await sql.query(
        `INSERT INTO "featureState" ("characterId", slice, value) VALUES ($1, 'prayer', $2::text::jsonb)`,
        [bad, JSON.stringify({ points: 'lots' })],
      );
      const set: Quarantined[] = [];
      const loaded = await sql.transaction((tx) => slice.load(tx, [good, bad], (q) => set.push(q)));
      expect(loaded.get(good)).toEqual({ points: 3 });
      expect(loaded.has(bad)).toBe(false);
      expect(set).toEqual([
        {
          table: 'featureState',
          column: 'value',
          row: `${bad}, prayer`,
          reason: expect.stringContaining('points'),
        },
      ]);
    });

    it('goes with the character when it is deleted', async () => {
      const account = (await port.createAnonymousUser(`u-${randomUUID().slice(0, 8)}`)).id;
      const c = (await port.createCharacter(makeCharacter(account, `Fs${randomUUID().slice(0, 8)}`))).id;
      await sql.transaction((tx) => slice.save(tx, [{ characterId: c, value: { points: 1 } }]));
      expect(await port.deleteCharacter(account, c)).toBe(true);
      const rows = await sql.query('SELECT 1 FROM "featureState" WHERE "characterId" = $1', [c]);
      expect(rows).toEqual([]);
    });
  });
}
