import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { LoginBatches } from '../../net/session/login-batches.ts';
import type { PersistencePort } from '../../persistence/port.ts';
import type { SqlClient } from '../../persistence/sql.ts';
import { inventoryOf, makeCharacter } from '../helpers/characters.ts';

/** Login batches (many logins in one transaction) through the persistence port; run by persistence.contract.ts on every driver. */
export function loginBatchesContract(
  get: () => { port: PersistencePort; sql: SqlClient; account: string },
): void {
  let port: PersistencePort;
  let sql: SqlClient;
  let account: string;
  beforeAll(() => {
    ({ port, sql, account } = get());
  });

  describe('login batches (issue 19: one transaction for many logins)', () => {
    const kit = () => ({
      coins: 25,
      inventory: inventoryOf({
        0: { itemId: 'bronze_axe', quantity: 1 },
        1: { itemId: 'logs', quantity: 3 },
      }),
      equipment: { weapon: { itemId: 'bronze_sword', quantity: 1 } },
      bank: [{ itemId: 'ore', quantity: 2 }],
    });
    const anonymous = (name: string) => {
      const c = makeCharacter(randomUUID(), name, kit());
      return { userName: `Guest-${name}`, character: c };
    };

    it('creates many anonymous accounts with their first characters; taken names are skipped whole', async () => {
      await port.createCharacter(makeCharacter(account, 'BatchTaken'));
      const entries = Array.from({ length: 40 }, (_, i) => anonymous(`Login${i}`));
      const clash = anonymous('batchtaken'); // an existing name, other case
      const twinA = anonymous('BatchTwin');
      const twinB = anonymous('BATCHTWIN'); // the same name twice in one batch
      const all = [...entries, clash, twinA, twinB];
      const { taken } = await port.createAnonymousLogins(all);
      expect([...taken].sort()).toEqual([clash.character.id, twinB.character.id].sort());
      const loaded = await port.loadCharacters(all.map((e) => e.character.id));
      expect(loaded.size).toBe(entries.length + 1);
      for (const e of [...entries, twinA]) {
        expect(loaded.get(e.character.id)).toEqual(await port.loadCharacter(e.character.id));
        expect(loaded.get(e.character.id)).toMatchObject({
          name: e.character.name,
          coins: 25,
          inventory: e.character.inventory,
          equipment: e.character.equipment,
          bank: e.character.bank,
        });
        expect(await port.getUser(e.character.accountId)).toMatchObject({
          anonymous: true,
          name: e.userName,
        });
      }
      // A skipped character left no holdings behind; its account exists and a retry with a new name works.
      const orphan = await sql.query('SELECT 1 FROM inventory WHERE "characterId" = $1', [
        clash.character.id,
      ]);
      expect(orphan).toEqual([]);
      const retry = { ...clash, character: { ...clash.character, name: 'BatchRetry' } };
      expect((await port.createAnonymousLogins([retry])).taken.size).toBe(0);
      expect((await port.loadCharacter(clash.character.id))?.name).toBe('BatchRetry');
      expect(await port.listCharacters(clash.character.accountId)).toHaveLength(1);
    });

    it('loads several characters at once, exactly as one by one; unknown ids are absent', async () => {
      const a = await port.createCharacter(makeCharacter(account, 'LoadManyA', kit()));
      const b = await port.createCharacter(makeCharacter(account, 'LoadManyB'));
      const got = await port.loadCharacters([a.id, 'no-such-id', b.id, a.id]);
      expect([...got.keys()].sort()).toEqual([a.id, b.id].sort());
      expect(got.get(a.id)).toEqual(await port.loadCharacter(a.id));
      expect(got.get(b.id)).toEqual(await port.loadCharacter(b.id));
      expect((await port.loadCharacters([])).size).toBe(0);
    });

    it('records many logins in one go: a session row each, lastLoginAt set, null for a deleted character', async () => {
      const a = await port.createCharacter(makeCharacter(account, 'RecordA'));
      const b = await port.createCharacter(makeCharacter(account, 'RecordB'));
      const ids = await port.recordLogins([
        { characterId: a.id, accountId: account },
        { characterId: 'deleted-meanwhile', accountId: account },
        { characterId: b.id, accountId: account },
      ]);
      expect(ids[1]).toBeNull();
      expect(ids[0]).toEqual(expect.any(String));
      expect(ids[2]).toEqual(expect.any(String));
      const rows = await sql.query<{ id: string; characterId: string; logoutAt: unknown }>(
        'SELECT id, "characterId", "logoutAt" FROM "playerSessions" WHERE id IN ($1, $2)',
        [ids[0], ids[2]],
      );
      expect(rows.map((r) => r.characterId).sort()).toEqual([a.id, b.id].sort());
      const list = await port.listCharacters(account);
      for (const id of [a.id, b.id]) expect(list.find((c) => c.id === id)?.lastLoginAt).toBeInstanceOf(Date);
      await port.recordLogout(ids[0] as string);
    });

    it('LoginBatches: 300 concurrent logins take a handful of batches, each caller gets its own result', async () => {
      const calls = { create: 0, load: 0, record: 0 };
      const counted = {
        createAnonymousLogins: (e: Parameters<PersistencePort['createAnonymousLogins']>[0]) => {
          calls.create++;
          return port.createAnonymousLogins(e);
        },
        loadCharacters: (ids: readonly string[]) => {
          calls.load++;
          return port.loadCharacters(ids);
        },
        recordLogins: (rows: Parameters<PersistencePort['recordLogins']>[0]) => {
          calls.record++;
          return port.recordLogins(rows);
        },
      };
      const batches = new LoginBatches(counted, 100);
      const entries = Array.from({ length: 300 }, (_, i) => anonymous(`Storm${i}`));
      entries.push(anonymous('Storm7')); // taken by an earlier entry: only this caller hears false
      const results = await Promise.all(
        entries.map(async (e) => {
          if (!(await batches.createAnonymous(e))) return { id: e.character.id, created: false };
          const state = await batches.loadCharacter(e.character.id);
          const session = await batches.recordLogin(e.character.id, e.character.accountId);
          return { id: e.character.id, created: true, name: state?.name, session };
        }),
      );
      expect(results.filter((r) => !r.created).map((r) => r.id)).toEqual([entries[300]!.character.id]);
      for (const [i, r] of results.slice(0, 300).entries()) {
        expect(r).toMatchObject({ created: true, name: `Storm${i}`, session: expect.any(String) });
      }
      expect(new Set(results.map((r) => r.session)).size).toBe(301); // 300 distinct + undefined
      // 301 of each, at most 100 a batch: 4 batches each (the first may be small: it starts at once).
      expect(calls.create).toBeLessThanOrEqual(5);
      expect(calls.load).toBeLessThanOrEqual(5);
      expect(calls.record).toBeLessThanOrEqual(5);
    });
  });
}
