import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { PersistencePort } from '../../persistence/port.ts';
import type { SqlClient } from '../../persistence/sql.ts';
import { SqlPersistence } from '../../persistence/sql-port.ts';
import { holdingsOf, inventoryOf, makeCharacter } from '../helpers/characters.ts';

/**
 * One character, one world: the holds of worlds sharing a database (docs/scaling.md); run by
 * persistence.contract.ts on every driver. A hold "expiring" is done by moving its expiry into the past
 * (what the clock does when its world stops renewing), so nothing here waits.
 */
export function worldLocksContract(get: () => { port: PersistencePort; sql: SqlClient }): void {
  describe('world locks (one character, one world)', () => {
    let port: PersistencePort;
    let sql: SqlClient;
    let account: string;
    beforeAll(async () => {
      ({ port, sql } = get());
      account = (await port.createAnonymousUser('lock-tester')).id;
    });
    const TTL = 30_000;
    const character = async (coins = 0) => {
      const c = makeCharacter(account, `Lk${randomUUID().slice(0, 8)}`, {
        coins,
        inventory: inventoryOf({ 0: { itemId: 'logs', quantity: 3 } }),
      });
      await port.createCharacter(c);
      return c;
    };
    /** The holder stopped renewing and its TTL ran out. */
    const expire = (id: string) =>
      sql.query(
        `UPDATE "characterLocks" SET "expiresAt" = now() - interval '1 second' WHERE "characterId" = $1`,
        [id],
      );

    it('a world takes free characters; another world is refused while it holds them; the holder may take again', async () => {
      const a = await character();
      const b = await character();
      expect(await port.claimCharacters(1, [a.id, b.id], TTL)).toEqual(new Set([a.id, b.id]));
      expect(await port.claimCharacters(2, [a.id], TTL)).toEqual(new Set());
      expect(await port.characterWorlds([a.id, b.id, 'nobody'])).toEqual(
        new Map([
          [a.id, 1],
          [b.id, 1],
        ]),
      );
      expect(await port.claimCharacters(1, [a.id], TTL)).toEqual(new Set([a.id]));
    });

    it('release frees the hold for another world; releasing a hold another world took leaves it alone', async () => {
      const a = await character();
      await port.claimCharacters(1, [a.id], TTL);
      await port.releaseCharacterLocks(1, [a.id]);
      expect(await port.characterWorlds([a.id])).toEqual(new Map());
      expect(await port.claimCharacters(2, [a.id], TTL)).toEqual(new Set([a.id]));
      await port.releaseCharacterLocks(1, [a.id]);
      expect(await port.characterWorlds([a.id])).toEqual(new Map([[a.id, 2]]));
    });

    it('a world that stops renewing loses its characters after the TTL: another world takes them', async () => {
      const a = await character();
      await port.claimCharacters(1, [a.id], TTL);
      await expire(a.id);
      expect(await port.characterWorlds([a.id])).toEqual(new Map());
      expect(await port.claimCharacters(2, [a.id], TTL)).toEqual(new Set([a.id]));
      expect(await port.characterWorlds([a.id])).toEqual(new Map([[a.id, 2]]));
    });

    it('renewal keeps what the world holds and names what it lost (expired or taken)', async () => {
      const kept = await character();
      const expired = await character();
      const taken = await character();
      await port.claimCharacters(1, [kept.id, expired.id, taken.id], TTL);
      await expire(expired.id);
      await expire(taken.id);
      await port.claimCharacters(2, [taken.id], TTL);
      expect((await port.renewCharacterLocks(1, [kept.id, expired.id, taken.id], TTL)).sort()).toEqual(
        [expired.id, taken.id].sort(),
      );
      expect(await port.characterWorlds([kept.id, taken.id])).toEqual(
        new Map([
          [kept.id, 1],
          [taken.id, 2],
        ]),
      );
    });

    it('a stale world cannot write a character after losing it: its saves skip it, its item transactions are stale', async () => {
      const world1 = new SqlPersistence(sql, { fenceWorld: 1 });
      const world2 = new SqlPersistence(sql, { fenceWorld: 2 });
      const c = await character(100);
      const other = await character(5);
      await world1.claimCharacters(1, [c.id, other.id], TTL);
      // While it holds the character, world 1 writes it.
      await world1.saveCharacters([{ ...c, coins: 110 }]);
      expect((await port.loadCharacter(c.id))?.coins).toBe(110);
      // World 1 stops renewing (a pause, a partition); world 2 takes the character and writes it.
      await expire(c.id);
      expect(await world2.claimCharacters(2, [c.id], TTL)).toEqual(new Set([c.id]));
      await world2.saveCharacters([{ ...c, coins: 200 }]);
      // World 1 comes back with an old snapshot: nothing of it lands; the other character it still holds does.
      await world1.saveCharacters([
        { ...c, coins: 999, inventory: inventoryOf({}) },
        { ...other, coins: 6 },
      ]);
      const now = await port.loadCharacter(c.id);
      expect(now?.coins).toBe(200);
      expect(now?.inventory[0]).toEqual({ itemId: 'logs', quantity: 3 });
      expect((await port.loadCharacter(other.id))?.coins).toBe(6);
      // Its item transactions on the lost character fail as stale, nothing written.
      const held = { ...c, coins: 200 };
      const res = await world1.applyItemTransaction({
        id: `stale-world-${c.id}`,
        kind: 'admin',
        conserve: false,
        changes: [{ characterId: c.id, before: holdingsOf(held), after: { ...holdingsOf(held), coins: 0 } }],
      });
      expect(res).toMatchObject({ ok: false, reason: 'stale' });
      expect((await port.loadCharacter(c.id))?.coins).toBe(200);
      // The holder's transaction goes through.
      const mine = await world2.applyItemTransaction({
        id: `holder-${c.id}`,
        kind: 'admin',
        conserve: false,
        changes: [{ characterId: c.id, before: holdingsOf(held), after: { ...holdingsOf(held), coins: 1 } }],
      });
      expect(mine).toEqual({ ok: true });
      expect((await port.loadCharacter(c.id))?.coins).toBe(1);
    });

    it('start-up recovery leaves a death of a character another world holds to that world', async () => {
      const world1 = new SqlPersistence(sql, { fenceWorld: 1 });
      const world2 = new SqlPersistence(sql, { fenceWorld: 2 });
      const c = await character();
      await world2.claimCharacters(2, [c.id], TTL);
      const id = `death-${c.id}`;
      const died = await world2.createDeathLock({
        id,
        characterId: c.id,
        position: { x: 1, y: 0, z: 1 },
        items: [{ itemId: 'logs', quantity: 3 }],
        before: holdingsOf(c),
        after: { ...holdingsOf(c), inventory: inventoryOf({}) },
      });
      expect(died).toEqual({ ok: true });
      const row = () => sql.query('SELECT 1 FROM "playerDeaths" WHERE id = $1', [id]);
      await world1.recoverDeathLocks(); // world 1 starts while world 2 is alive
      expect(await row()).toHaveLength(1);
      await expire(c.id); // world 2 died
      await world1.recoverDeathLocks();
      expect(await row()).toHaveLength(0);
      expect((await port.loadCharacter(c.id))?.bank).toEqual([{ itemId: 'logs', quantity: 3 }]);
    });

    it('without a world id (one world, no locks) saves are not fenced', async () => {
      const c = await character(10);
      await port.saveCharacters([{ ...c, coins: 11 }]);
      expect((await port.loadCharacter(c.id))?.coins).toBe(11);
    });
  });
}
