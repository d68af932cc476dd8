import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { MAX_FRIENDS, MAX_IGNORED, type SocialOutcome } from '../../ecs/features/social/index.ts';
import type { PersistencePort } from '../../persistence/port.ts';
import type { SqlClient } from '../../persistence/sql.ts';
import { makeCharacter } from '../helpers/characters.ts';

/** Friends, requests and ignore lists through the persistence port; run by persistence.contract.ts on every driver. */
export function socialContract(get: () => { port: PersistencePort; sql: SqlClient }): void {
  describe('friends and ignore lists', () => {
    let port: PersistencePort;
    let sql: SqlClient;
    beforeAll(() => {
      ({ port, sql } = get());
    });

    let n = 0;
    /** A new account with one character; returns the character's id and name. */
    const character = async (prefix = 'Soc') => {
      const name = `${prefix}${++n}x${randomUUID().slice(0, 6)}`;
      const account = (await port.createAnonymousUser(`u-${name}`)).id;
      const c = await port.createCharacter(makeCharacter(account, name));
      return { id: c.id, name, account };
    };
    const ok = (o: SocialOutcome) => {
      if (!o.ok) throw new Error(`expected success, got ${o.code}: ${o.message}`);
      return o;
    };
    const lists = async (id: string) => (await port.loadSocialLists([id])).get(id);

    it('a request to an offline player is stored, shown to both, and loaded with the character', async () => {
      const a = await character();
      const b = await character();
      const r = ok(await port.socialAct({ kind: 'request', actorId: a.id, name: b.name.toUpperCase() }));
      expect(r.result).toBe('requested');
      expect(r.otherId).toBe(b.id);
      const requestId = `${a.id}>${b.id}`;
      expect(r.lists[b.id]?.requests).toEqual([{ requestId, fromId: a.id, fromName: a.name }]);
      expect(r.lists[a.id]?.outgoing).toEqual([{ id: b.id, name: b.name }]);
      const loaded = await port.loadCharacter(b.id);
      expect(loaded?.slices?.social?.requests).toEqual([{ requestId, fromId: a.id, fromName: a.name }]);
    });

    it('unknown name NOT_FOUND, self INVALID_TARGET, duplicate or existing friend BUSY', async () => {
      const a = await character();
      const b = await character();
      expect(
        await port.socialAct({ kind: 'request', actorId: a.id, name: 'NoSuchPlayerHere' }),
      ).toMatchObject({
        ok: false,
        code: 'NOT_FOUND',
      });
      expect(await port.socialAct({ kind: 'request', actorId: a.id, name: a.name })).toMatchObject({
        ok: false,
        code: 'INVALID_TARGET',
      });
      ok(await port.socialAct({ kind: 'request', actorId: a.id, name: b.name }));
      expect(await port.socialAct({ kind: 'request', actorId: a.id, name: b.name })).toMatchObject({
        ok: false,
        code: 'BUSY',
      });
      ok(
        await port.socialAct({ kind: 'respond', actorId: b.id, requestId: `${a.id}>${b.id}`, accept: true }),
      );
      expect(await port.socialAct({ kind: 'request', actorId: b.id, name: a.name })).toMatchObject({
        ok: false,
        code: 'BUSY',
      });
    });

    it('accept makes both friends; decline drops the request; a request of others cannot be answered', async () => {
      const a = await character();
      const b = await character();
      const c = await character();
      ok(await port.socialAct({ kind: 'request', actorId: a.id, name: b.name }));
      ok(await port.socialAct({ kind: 'request', actorId: c.id, name: b.name }));
      expect(
        await port.socialAct({ kind: 'respond', actorId: c.id, requestId: `${a.id}>${b.id}`, accept: true }),
      ).toMatchObject({ ok: false, code: 'NOT_FOUND' });
      const yes = ok(
        await port.socialAct({ kind: 'respond', actorId: b.id, requestId: `${a.id}>${b.id}`, accept: true }),
      );
      expect(yes.result).toBe('befriended');
      expect(yes.lists[a.id]?.friends).toEqual([{ id: b.id, name: b.name }]);
      expect(yes.lists[b.id]?.friends).toEqual([{ id: a.id, name: a.name }]);
      const no = ok(
        await port.socialAct({ kind: 'respond', actorId: b.id, requestId: `${c.id}>${b.id}`, accept: false }),
      );
      expect(no.result).toBe('declined');
      expect((await lists(b.id))?.requests).toEqual([]);
      expect((await lists(c.id))?.friends).toEqual([]);
      expect(
        await port.socialAct({ kind: 'respond', actorId: b.id, requestId: `${c.id}>${b.id}`, accept: true }),
      ).toMatchObject({ ok: false, code: 'NOT_FOUND' });
    });

    it('two requests crossing at once become one friendship and no request', async () => {
      for (let round = 0; round < 3; round++) {
        const a = await character();
        const b = await character();
        const results = await Promise.all([
          port.socialAct({ kind: 'request', actorId: a.id, name: b.name }),
          port.socialAct({ kind: 'request', actorId: b.id, name: a.name }),
        ]);
        expect(results.map((r) => (r.ok ? r.result : r.code)).sort()).toEqual(['befriended', 'requested']);
        const both = await port.loadSocialLists([a.id, b.id]);
        expect(both.get(a.id)).toEqual({
          friends: [{ id: b.id, name: b.name }],
          ignored: [],
          requests: [],
          outgoing: [],
        });
        expect(both.get(b.id)).toEqual({
          friends: [{ id: a.id, name: a.name }],
          ignored: [],
          requests: [],
          outgoing: [],
        });
      }
    });

    it('many identical requests at once leave exactly one', async () => {
      const a = await character();
      const b = await character();
      const results = await Promise.all(
        Array.from({ length: 8 }, () => port.socialAct({ kind: 'request', actorId: a.id, name: b.name })),
      );
      expect(results.filter((r) => r.ok)).toHaveLength(1);
      expect(results.filter((r) => !r.ok).map((r) => !r.ok && r.code)).toEqual(Array(7).fill('BUSY'));
      expect((await lists(b.id))?.requests).toHaveLength(1);
    });

    it('remove ends the friendship both ways, or withdraws a pending request; else NOT_FOUND', async () => {
      const a = await character();
      const b = await character();
      ok(await port.socialAct({ kind: 'request', actorId: a.id, name: b.name }));
      ok(await port.socialAct({ kind: 'request', actorId: b.id, name: a.name }));
      const r = ok(await port.socialAct({ kind: 'remove', actorId: b.id, name: a.name }));
      expect(r.lists[a.id]?.friends).toEqual([]);
      expect(r.lists[b.id]?.friends).toEqual([]);
      expect(await port.socialAct({ kind: 'remove', actorId: a.id, name: b.name })).toMatchObject({
        ok: false,
        code: 'NOT_FOUND',
      });
      ok(await port.socialAct({ kind: 'request', actorId: a.id, name: b.name }));
      ok(await port.socialAct({ kind: 'remove', actorId: a.id, name: b.name }));
      expect((await lists(b.id))?.requests).toEqual([]);
    });

    it('the ignore list belongs to the account: add, BUSY twice, remove, NOT_FOUND, self INVALID_TARGET', async () => {
      const a = await character();
      const b = await character();
      const alt = await port.createCharacter(makeCharacter(a.account, `Alt${randomUUID().slice(0, 8)}`));
      const r = ok(await port.socialAct({ kind: 'ignoreAdd', actorId: a.id, name: b.name }));
      expect(r.lists[a.id]?.ignored).toEqual([{ id: b.id, name: b.name }]);
      // The account's other character changed too: its fresh lists come with the outcome.
      expect(Object.keys(r.lists).sort()).toEqual([a.id, alt.id].sort());
      expect(r.lists[alt.id]?.ignored).toEqual([{ id: b.id, name: b.name }]);
      expect((await lists(alt.id))?.ignored).toEqual([{ id: b.id, name: b.name }]);
      expect(await port.socialAct({ kind: 'ignoreAdd', actorId: alt.id, name: b.name })).toMatchObject({
        ok: false,
        code: 'BUSY',
      });
      expect(await port.socialAct({ kind: 'ignoreAdd', actorId: a.id, name: a.name })).toMatchObject({
        ok: false,
        code: 'INVALID_TARGET',
      });
      ok(await port.socialAct({ kind: 'ignoreRemove', actorId: a.id, name: b.name }));
      expect(await port.socialAct({ kind: 'ignoreRemove', actorId: a.id, name: b.name })).toMatchObject({
        ok: false,
        code: 'NOT_FOUND',
      });
      expect(
        await port.socialAct({ kind: 'ignoreAdd', actorId: a.id, name: 'NoSuchPlayerHere' }),
      ).toMatchObject({
        ok: false,
        code: 'NOT_FOUND',
      });
    });

    it(`at most ${MAX_FRIENDS} friends and ${MAX_IGNORED} ignored: REQUIREMENT_NOT_MET past that`, async () => {
      const a = await character('Full');
      const b = await character();
      const c = await character();
      const others = await port.createAnonymousLogins(
        Array.from({ length: MAX_FRIENDS }, (_, i) => {
          const acct = randomUUID();
          return {
            userName: `f${i}`,
            character: makeCharacter(acct, `Filler${i}x${randomUUID().slice(0, 6)}`),
          };
        }),
      );
      expect(others.taken.size).toBe(0);
      const ids = (
        await sql.query<{ id: string }>('SELECT id FROM characters WHERE name LIKE $1', ['Filler%'])
      )
        .map((r) => r.id)
        .slice(0, MAX_FRIENDS);
      await sql.query(
        `INSERT INTO friendships ("characterA", "characterB")
         SELECT least($1, x), greatest($1, x) FROM jsonb_array_elements_text($2::text::jsonb) AS x`,
        [a.id, JSON.stringify(ids)],
      );
      await sql.query(
        `INSERT INTO ignore_lists ("accountId", "ignoredCharacterId")
         SELECT $1, x FROM jsonb_array_elements_text($2::text::jsonb) AS x LIMIT ${MAX_IGNORED}`,
        [a.account, JSON.stringify(ids)],
      );
      expect(await port.socialAct({ kind: 'request', actorId: a.id, name: b.name })).toMatchObject({
        ok: false,
        code: 'REQUIREMENT_NOT_MET',
      });
      expect(await port.socialAct({ kind: 'ignoreAdd', actorId: a.id, name: b.name })).toMatchObject({
        ok: false,
        code: 'REQUIREMENT_NOT_MET',
      });
      // The other side full: the request waits, the accept is refused and the request kept.
      ok(await port.socialAct({ kind: 'request', actorId: c.id, name: a.name }));
      expect(
        await port.socialAct({ kind: 'respond', actorId: a.id, requestId: `${c.id}>${a.id}`, accept: true }),
      ).toMatchObject({ ok: false, code: 'REQUIREMENT_NOT_MET' });
      expect((await lists(a.id))?.requests).toHaveLength(1);
      expect((await lists(a.id))?.friends).toHaveLength(MAX_FRIENDS);
    });
  });
}
