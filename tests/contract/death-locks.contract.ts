import { beforeAll, describe, expect, it } from 'vitest';
import type { PersistencePort } from '../../persistence/port.ts';
import { holdingsOf, inventoryOf, makeCharacter } from '../helpers/characters.ts';

/** Death locks (a dying player's drop, written before anything else) through the persistence port; run by persistence.contract.ts on every driver. */
export function deathLocksContract(get: () => { port: PersistencePort; account: string }): void {
  let port: PersistencePort;
  let account: string;
  beforeAll(() => {
    ({ port, account } = get());
  });

  describe('death locks', () => {
    it('a lock takes the items in one transaction; recovery returns them to the bank', async () => {
      const c = makeCharacter(account, 'Dies', {
        coins: 30,
        inventory: inventoryOf({ 0: { itemId: 'logs', quantity: 4 }, 1: { itemId: 'ore', quantity: 1 } }),
        bank: [{ itemId: 'logs', quantity: 1 }],
      });
      await port.createCharacter(c);
      const lock = {
        id: `death-${c.id}`,
        characterId: c.id,
        position: { x: 1, y: 10, z: 2 },
        items: [
          { itemId: 'logs', quantity: 4 },
          { itemId: 'ore', quantity: 1 },
          { itemId: 'coins', quantity: 30 },
        ],
        before: holdingsOf(c),
        after: { ...holdingsOf(c), inventory: inventoryOf({}), coins: 0 },
      };
      // The lock must hold exactly what leaves the character.
      expect(await port.createDeathLock({ ...lock, items: lock.items.slice(1) })).toMatchObject({
        ok: false,
        reason: 'not_conserved',
      });
      expect(await port.createDeathLock(lock)).toEqual({ ok: true });
      expect(await port.createDeathLock(lock)).toEqual({ ok: true }); // idempotent
      const dead = await port.loadCharacter(c.id);
      expect(dead?.inventory.every((s) => s === null)).toBe(true);
      expect(await port.recoverDeathLocks()).toBe(1);
      const back = await port.loadCharacter(c.id);
      expect(back?.bank).toEqual([
        { itemId: 'logs', quantity: 5 },
        { itemId: 'ore', quantity: 1 },
        { itemId: 'coins', quantity: 30 },
      ]);
      expect(await port.recoverDeathLocks()).toBe(0);
    });

    it('resolving with a claim gives the owner back at most what the lock holds', async () => {
      const c = makeCharacter(account, 'DiesAgain', {
        inventory: inventoryOf({ 0: { itemId: 'ore', quantity: 2 } }),
      });
      await port.createCharacter(c);
      const empty = { ...holdingsOf(c), inventory: inventoryOf({}) };
      const lock = {
        id: `d2-${c.id}`,
        characterId: c.id,
        position: { x: 0, y: 0, z: 0 },
        items: [{ itemId: 'ore', quantity: 2 }],
      };
      expect(await port.createDeathLock({ ...lock, before: holdingsOf(c), after: empty })).toEqual({
        ok: true,
      });
      const greedy = {
        characterId: c.id,
        before: empty,
        after: { ...empty, inventory: inventoryOf({ 0: { itemId: 'ore', quantity: 3 } }) },
      };
      expect(await port.resolveDeathLock(lock.id, greedy)).toMatchObject({
        ok: false,
        reason: 'not_conserved',
      });
      const fair = {
        characterId: c.id,
        before: empty,
        after: { ...empty, inventory: inventoryOf({ 5: { itemId: 'ore', quantity: 2 } }) },
      };
      expect(await port.resolveDeathLock(lock.id, fair)).toEqual({ ok: true });
      expect((await port.loadCharacter(c.id))?.inventory[5]).toEqual({ itemId: 'ore', quantity: 2 });
      expect(await port.resolveDeathLock(lock.id)).toMatchObject({ ok: false, reason: 'stale' });
      expect(await port.recoverDeathLocks()).toBe(0);
    });
  });
}
