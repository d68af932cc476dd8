import { beforeAll, describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, MAX_STORED_JSON_BYTES } from '../../lib/json-limits.ts';
import type { SqlClient } from '../../persistence/sql.ts';
import { SqlPersistence } from '../../persistence/sql-port.ts';
import type { Quarantined } from '../../persistence/stored-json.ts';
import { makeCharacter } from '../helpers/characters.ts';

/**
 * Issue 26: JSON columns read back (agent goals, quest progress, death locks' items) may hold anything
 * a row was given before the limits existed or by hand. Each is loaded when it is within the JSON limits
 * and has its shape, and otherwise set aside with a report naming the row: never parsed into something
 * that overflows the stack later, never a failed load. Run by persistence.contract.ts on every driver.
 */
export function storedJsonContract(get: () => { sql: SqlClient; account: string }): void {
  let sql: SqlClient;
  let account: string;
  let port: SqlPersistence;
  const quarantined: Quarantined[] = [];
  const deep = (n: number) => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`;
  const tooDeep = `nested more than ${MAX_JSON_DEPTH} levels deep`;

  beforeAll(() => {
    ({ sql, account } = get());
    port = new SqlPersistence(sql, { onQuarantine: (q) => quarantined.push(q) });
  });

  describe('stored JSON over the limits or out of shape is set aside, with a report naming the row', () => {
    it('agent_goals.goal: the character has no goal; a sound goal loads', async () => {
      const c = await port.createCharacter(makeCharacter(account, 'GoalRow'));
      const put = (text: string) =>
        sql.query(
          `INSERT INTO agent_goals ("characterId", goal, paused) VALUES ($1, $2::text::jsonb, true)
           ON CONFLICT ("characterId") DO UPDATE SET goal = EXCLUDED.goal`,
          [c.id, text],
        );
      const sound = { type: 'idle', label: 'Idle', startedAt: 5, params: { a: [1, { b: 2 }] } };
      await put(JSON.stringify(sound));
      expect(await port.loadAgentGoal(c.id)).toEqual({ goal: sound, paused: true });

      const big = JSON.stringify({ ...sound, params: { s: 'x'.repeat(MAX_STORED_JSON_BYTES) } });
      const cases: [string, unknown][] = [
        [`{"type":"idle","label":"Idle","startedAt":5,"params":${deep(1500)}}`, tooDeep],
        ['[1,2]', 'not the stored shape (Invalid input: expected object, received array)'],
        [
          '{"type":"idle"}',
          'not the stored shape (label: Invalid input: expected string, received undefined)',
        ],
        // Measured on the text the database gives back (jsonb adds spaces).
        [big, expect.stringMatching(new RegExp(`^\\d+ bytes, over the limit of ${MAX_STORED_JSON_BYTES}$`))],
      ];
      for (const [text, reason] of cases) {
        quarantined.length = 0;
        await put(text);
        expect(await port.loadAgentGoal(c.id)).toEqual({ goal: null, paused: true });
        expect(quarantined).toEqual([{ table: 'agent_goals', column: 'goal', row: c.id, reason }]);
      }
    });

    it('characterQuests.quests: the character loads without quest progress; sound progress loads', async () => {
      const c = await port.createCharacter(makeCharacter(account, 'QuestRow'));
      const put = (text: string) =>
        sql.query(
          `INSERT INTO "characterQuests" ("characterId", "questPoints", quests) VALUES ($1, 3, $2::text::jsonb)
           ON CONFLICT ("characterId") DO UPDATE SET quests = EXCLUDED.quests`,
          [c.id, text],
        );
      const sound = { cook: { status: 'in_progress', stage: 1, progress: 2 } };
      await put(JSON.stringify(sound));
      expect((await port.loadCharacter(c.id))?.slices?.quests).toEqual({ points: 3, quests: sound });

      quarantined.length = 0;
      await put(`{"cook":{"status":"in_progress","stage":1,"progress":${deep(1500)}}}`);
      const loaded = await port.loadCharacter(c.id);
      expect(loaded?.name).toBe('QuestRow');
      expect(loaded?.slices?.quests).toBeUndefined();
      expect(quarantined).toEqual([
        { table: 'characterQuests', column: 'quests', row: c.id, reason: tooDeep },
      ]);
      // The row stays for an operator until the game saves progress over it.
      const [row] = await sql.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM "characterQuests" WHERE "characterId" = $1',
        [c.id],
      );
      expect(row?.n).toBe(1);
    });

    it('playerDeaths.items: recovery and claims leave the lock in place and fail; nothing is moved', async () => {
      const c = await port.createCharacter(makeCharacter(account, 'LockRow'));
      const id = `bad-lock-${c.id}`;
      await sql.query(
        `INSERT INTO "playerDeaths" (id, "characterId", "positionX", "positionY", "positionZ", items)
         VALUES ($1, $2, 0, 0, 0, $3::text::jsonb)`,
        [id, c.id, `[{"itemId":"logs","quantity":1,"x":${deep(1500)}}]`],
      );
      quarantined.length = 0;
      expect(await port.recoverDeathLocks()).toBe(0);
      expect(await port.resolveDeathLock(id)).toEqual({
        ok: false,
        reason: 'error',
        detail: `death lock ${id}: its stored items are ${tooDeep}`,
      });
      expect(quarantined).toEqual([
        { table: 'playerDeaths', column: 'items', row: id, reason: tooDeep },
        { table: 'playerDeaths', column: 'items', row: id, reason: tooDeep },
      ]);
      expect((await port.loadCharacter(c.id))?.bank).toEqual([]);
      await sql.query('DELETE FROM "playerDeaths" WHERE id = $1', [id]);
    });
  });
}
