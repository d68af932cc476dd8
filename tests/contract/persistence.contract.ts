import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SKILLS } from '../../ecs/core/skills.ts';
import { loadMigrations, migrate } from '../../persistence/migrate.ts';
import { NameTakenError, type PersistencePort } from '../../persistence/port.ts';
import type { SqlClient } from '../../persistence/sql.ts';
import { SqlPersistence } from '../../persistence/sql-port.ts';
import { holdingsOf, inventoryOf, makeCharacter } from '../helpers/characters.ts';
import type { TestDb } from '../helpers/db.ts';
import { agentsContract } from './agents.contract.ts';
import { deathLocksContract } from './death-locks.contract.ts';
import { featureStateContract } from './feature-state.contract.ts';
import { loginBatchesContract } from './login-batches.contract.ts';
import { rejectsWith } from './rejects-with.ts';
import { socialContract } from './social.contract.ts';
import { storedJsonContract } from './stored-json.contract.ts';
import { worldLocksContract } from './world-locks.contract.ts';

/** The persistence contract: the same tests against every driver (ARCHITECTURE rule 7). */
export function persistenceContract(make: () => TestDb): void {
  let db: TestDb;
  let sql: SqlClient;
  let port: PersistencePort;
  let account: string;

  beforeAll(async () => {
    db = make();
    sql = await db.connect();
    await migrate(sql);
    port = new SqlPersistence(sql);
    account = (await port.createAnonymousUser('tester')).id;
  });
  afterAll(async () => {
    await sql?.close();
    await db?.destroy();
  });

  describe('migrations', () => {
    it('are idempotent: a second run applies nothing', async () => {
      expect(await migrate(sql)).toEqual([]);
      const rows = await sql.query<{ version: string }>('SELECT version FROM schema_migrations');
      expect(rows.map((r) => r.version)).toContain('001_initial');
    });

    it('two migrators at once on a fresh database apply each version exactly once', async () => {
      const fresh = make();
      const a = await fresh.connect();
      const b = fresh.name === 'pglite' ? a : await fresh.connect();
      try {
        const [ra, rb] = await Promise.all([migrate(a), migrate(b)]);
        const all = loadMigrations().map((m) => m.version);
        expect(all[0]).toBe('001_initial');
        expect([...ra, ...rb].sort()).toEqual(all);
        const rows = await a.query('SELECT version FROM schema_migrations');
        expect(rows).toHaveLength(all.length);
      } finally {
        if (b !== a) await b.close();
        await a.close();
        await fresh.destroy();
      }
    });
  });

  describe('the SQL adapter', () => {
    it('passes an array parameter whole, whatever its strings hold', async () => {
      const values = ['plain', 'with,comma', 'with "quotes"', 'back\\slash', '{braces}', '', 'NULL', 'ünï'];
      const rows = await sql.query<{ v: string | null }>(
        'SELECT v FROM unnest($1::text[]) WITH ORDINALITY AS t(v, n) ORDER BY n',
        [[...values, null]],
      );
      expect(rows.map((r) => r.v)).toEqual([...values, null]);
      const ints = await sql.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM unnest($1::int[]) AS x WHERE x > 1',
        [[1, 2, 3]],
      );
      expect(ints[0]?.n).toBe(2);
    });
  });

  describe('constraints refuse impossible states', () => {
    let id: string;
    beforeAll(async () => {
      id = (await port.createCharacter(makeCharacter(account, 'Constrained'))).id;
    });

    it('inventory slot 28 and slot -1', async () => {
      await rejectsWith(sql.query(`INSERT INTO inventory VALUES ($1, 28, 'logs', 1)`, [id]), '23514');
      await rejectsWith(sql.query(`INSERT INTO inventory VALUES ($1, -1, 'logs', 1)`, [id]), '23514');
    });
    it('quantity 0 in inventory, bank and equipment', async () => {
      await rejectsWith(sql.query(`INSERT INTO inventory VALUES ($1, 0, 'logs', 0)`, [id]), '23514');
      await rejectsWith(sql.query(`INSERT INTO bank VALUES ($1, 'logs', 0, 0)`, [id]), '23514');
      await rejectsWith(sql.query(`INSERT INTO equipment VALUES ($1, 'weapon', 'sword', 0)`, [id]), '23514');
    });
    it('negative coins', async () => {
      await rejectsWith(sql.query('UPDATE characters SET coins = -1 WHERE id = $1', [id]), '23514');
    });
    it('duplicate inventory slot and duplicate equipment slot', async () => {
      await sql.query(`INSERT INTO inventory VALUES ($1, 3, 'logs', 1)`, [id]);
      await rejectsWith(sql.query(`INSERT INTO inventory VALUES ($1, 3, 'ore', 1)`, [id]), '23505');
      await sql.query(`INSERT INTO equipment VALUES ($1, 'weapon', 'bronze_sword', 1)`, [id]);
      await rejectsWith(
        sql.query(`INSERT INTO equipment VALUES ($1, 'weapon', 'iron_sword', 1)`, [id]),
        '23505',
      );
    });
    it('an unknown equipment slot type', async () => {
      await rejectsWith(sql.query(`INSERT INTO equipment VALUES ($1, 'tail', 'x', 1)`, [id]), '23514');
    });
    it('a duplicate name, case-insensitively (NameTakenError)', async () => {
      await expect(port.createCharacter(makeCharacter(account, 'constrained'))).rejects.toBeInstanceOf(
        NameTakenError,
      );
      const other = await port.createCharacter(makeCharacter(account, 'Other'));
      await expect(port.renameCharacter(other.id, 'CONSTRAINED')).rejects.toBeInstanceOf(NameTakenError);
    });
    it('a friendship stored out of order, a self friend request', async () => {
      const other = await port.createCharacter(makeCharacter(account, 'Friend'));
      const [lo, hi] = [id, other.id].sort() as [string, string];
      await sql.query('INSERT INTO friendships ("characterA", "characterB") VALUES ($1, $2)', [lo, hi]);
      await rejectsWith(
        sql.query('INSERT INTO friendships ("characterA", "characterB") VALUES ($1, $2)', [hi, lo]),
        '23514',
      );
      await rejectsWith(
        sql.query('INSERT INTO friend_requests ("fromId", "toId") VALUES ($1, $1)', [id]),
        '23514',
      );
    });
    it('a character of an unknown account', async () => {
      await rejectsWith(port.createCharacter(makeCharacter('no-such-account', 'Orphan')), '23503');
    });
  });

  describe('accounts and characters', () => {
    it('find-or-create by identity-provider subject returns the same user', async () => {
      const a = await port.findOrCreateIdpUser('did:privy:abc');
      const b = await port.findOrCreateIdpUser('did:privy:abc');
      expect(b.id).toBe(a.id);
      expect(a).toMatchObject({ idpSubject: 'did:privy:abc', anonymous: false, banned: false });
      expect(await port.getUser(a.id)).toEqual(a);
      expect(await port.getUser('nobody')).toBeNull();
    });

    it('round-trips a character with all 17 skills, holdings and position', async () => {
      const c = makeCharacter(account, 'RoundTrip', {
        coins: 1234,
        inventory: inventoryOf({ 0: { itemId: 'logs', quantity: 5 }, 27: { itemId: 'coins', quantity: 9 } }),
        equipment: {
          weapon: { itemId: 'bronze_sword', quantity: 1 },
          arrows: { itemId: 'bronze_arrow', quantity: 50 },
        },
        bank: [
          { itemId: 'ore', quantity: 3 },
          { itemId: 'fish', quantity: 7 },
        ],
        position: { x: 12.5, y: 10.25, z: -3.75 },
      });
      SKILLS.forEach((s, i) => {
        c.skills[s] = { level: i + 2, xp: 1000 * (i + 1) };
      });
      c.health = 77;
      await port.createCharacter(c);
      expect(await port.loadCharacter(c.id)).toEqual(c);
      const [summary] = await port.listCharacters(account).then((l) => l.filter((x) => x.id === c.id));
      expect(summary).toMatchObject({ name: 'RoundTrip', accountId: account, lastLoginAt: null });
      expect((await port.findCharacterByName('roundtrip'))?.id).toBe(c.id);
      await port.touchLogin(c.id);
      expect((await port.findCharacterByName('RoundTrip'))?.lastLoginAt).toBeInstanceOf(Date);
    });

    it('defaults of the specification for a bare row', async () => {
      await sql.query(`INSERT INTO characters (id, "accountId", name) VALUES ('bare', $1, 'Bare')`, [
        account,
      ]);
      const [row] = await sql.query('SELECT * FROM characters WHERE id = $1', ['bare']);
      expect(row).toMatchObject({
        combatLevel: 3,
        attackLevel: 1,
        constitutionLevel: 10,
        health: 100,
        coins: 0,
        positionX: 0,
        positionY: 10,
        positionZ: 0,
      });
    });

    it('deletes only with the owning account, cascading to holdings', async () => {
      const c = makeCharacter(account, 'Doomed', {
        inventory: inventoryOf({ 1: { itemId: 'logs', quantity: 1 } }),
      });
      await port.createCharacter(c);
      expect(await port.deleteCharacter('someone-else', c.id)).toBe(false);
      expect(await port.deleteCharacter(account, c.id)).toBe(true);
      expect(await port.loadCharacter(c.id)).toBeNull();
      expect(await sql.query('SELECT 1 FROM inventory WHERE "characterId" = $1', [c.id])).toHaveLength(0);
    });
  });

  describe('batch save', () => {
    it('writes full state of every character in one call and never touches the bank', async () => {
      const cs = [0, 1, 2].map((i) =>
        makeCharacter(account, `Batch${i}`, { bank: [{ itemId: 'ore', quantity: 10 }] }),
      );
      for (const c of cs) await port.createCharacter(c);
      for (const [i, c] of cs.entries()) {
        c.position = { x: i + 0.5, y: 11, z: -i - 0.25 };
        c.skills.woodcutting = { level: 5 + i, xp: 400 + i };
        c.health = 50 + i;
        c.coins = 10 * i;
        c.inventory = inventoryOf({ [i]: { itemId: 'logs', quantity: i + 1 } });
        c.equipment = i === 1 ? { helmet: { itemId: 'bronze_helmet', quantity: 1 } } : {};
        c.bank = []; // must be ignored by a save
      }
      await port.saveCharacters(cs);
      for (const c of cs) {
        const loaded = await port.loadCharacter(c.id);
        expect(loaded).toEqual({ ...c, bank: [{ itemId: 'ore', quantity: 10 }] });
      }
    });

    it('saves and loads feature slices with the character; a snapshot without one leaves it as it is', async () => {
      const c = makeCharacter(account, 'Sliced');
      await port.createCharacter(c);
      expect((await port.loadCharacter(c.id))?.slices).toBeUndefined();
      const readyAtMs = Date.UTC(2030, 0, 2, 3, 4, 5, 678);
      await port.saveCharacters([{ ...c, slices: { homeTeleport: { readyAtMs } } }]);
      expect((await port.loadCharacter(c.id))?.slices).toEqual({ homeTeleport: { readyAtMs } });
      await port.saveCharacters([{ ...c, slices: { homeTeleport: { readyAtMs: readyAtMs + 1000 } } }]);
      await port.saveCharacters([{ ...c, coins: 3 }]);
      const loaded = await port.loadCharacter(c.id);
      expect(loaded?.coins).toBe(3);
      expect(loaded?.slices).toEqual({ homeTeleport: { readyAtMs: readyAtMs + 1000 } });
      expect(await port.deleteCharacter(account, c.id)).toBe(true);
    });

    it('saves and loads prayer points and npc kill counts (totals, never lowered by an older snapshot)', async () => {
      const c = makeCharacter(account, 'Fighter');
      await port.createCharacter(c);
      await port.saveCharacters([{ ...c, slices: { prayer: { points: 7 }, npcKills: { rat: 3, wolf: 1 } } }]);
      expect((await port.loadCharacter(c.id))?.slices).toEqual({
        prayer: { points: 7 },
        npcKills: { rat: 3, wolf: 1 },
      });
      await port.saveCharacters([{ ...c, slices: { prayer: { points: 0 }, npcKills: { rat: 5, wolf: 1 } } }]);
      await port.saveCharacters([{ ...c, slices: { npcKills: { rat: 4 } } }]);
      expect((await port.loadCharacter(c.id))?.slices).toEqual({
        prayer: { points: 0 },
        npcKills: { rat: 5, wolf: 1 },
      });
      expect(await port.deleteCharacter(account, c.id)).toBe(true);
    });

    it('saves and loads the quests slice: progress by quest and quest points', async () => {
      const c = makeCharacter(account, 'Quester');
      await port.createCharacter(c);
      const quests = {
        points: 2,
        quests: {
          boar_trouble: { status: 'completed' as const, stage: 2, progress: 1 },
          first_catch: { status: 'in_progress' as const, stage: 1, progress: 3 },
        },
      };
      await port.saveCharacters([{ ...c, slices: { quests } }]);
      expect((await port.loadCharacter(c.id))?.slices).toEqual({ quests });
      const later = {
        points: 3,
        quests: { ...quests.quests, first_catch: { status: 'completed' as const, stage: 2, progress: 5 } },
      };
      await port.saveCharacters([{ ...c, slices: { quests: later } }]);
      await port.saveCharacters([{ ...c, coins: 4 }]);
      expect((await port.loadCharacter(c.id))?.slices?.quests).toEqual(later);
      expect(await port.deleteCharacter(account, c.id)).toBe(true);
    });

    it('a later save empties slots and unequips: rows of emptied slots are deleted', async () => {
      const c = makeCharacter(account, 'Emptier', {
        inventory: inventoryOf({ 0: { itemId: 'logs', quantity: 1 }, 9: { itemId: 'ore', quantity: 2 } }),
        equipment: {
          weapon: { itemId: 'bronze_sword', quantity: 1 },
          ring: { itemId: 'gold_ring', quantity: 1 },
        },
      });
      await port.createCharacter(c);
      c.inventory = inventoryOf({ 9: { itemId: 'ore', quantity: 3 }, 10: { itemId: 'fish', quantity: 1 } });
      c.equipment = { ring: { itemId: 'gold_ring', quantity: 1 } };
      await port.saveCharacters([c]);
      expect(await port.loadCharacter(c.id)).toEqual(c);
      expect(
        await sql.query('SELECT slot FROM inventory WHERE "characterId" = $1 ORDER BY slot', [c.id]),
      ).toEqual([{ slot: 9 }, { slot: 10 }]);
    });

    it('a save after another writer changed the rows still writes the whole snapshot', async () => {
      const c = makeCharacter(account, 'Cached', {
        inventory: inventoryOf({ 0: { itemId: 'logs', quantity: 1 } }),
      });
      await port.createCharacter(c);
      await port.saveCharacters([c]); // the port now knows what it wrote
      const deposit = {
        ...holdingsOf(c),
        inventory: inventoryOf({}),
        bank: [{ itemId: 'logs', quantity: 1 }],
      };
      const res = await port.applyItemTransaction({
        id: `dep-${c.id}`,
        kind: 'bank_deposit',
        conserve: true,
        changes: [{ characterId: c.id, before: holdingsOf(c), after: deposit }],
      });
      expect(res).toEqual({ ok: true });
      c.inventory = inventoryOf({ 0: { itemId: 'logs', quantity: 1 }, 1: { itemId: 'ore', quantity: 1 } });
      await port.saveCharacters([c]);
      const loaded = await port.loadCharacter(c.id);
      expect(loaded?.inventory.slice(0, 2)).toEqual([
        { itemId: 'logs', quantity: 1 },
        { itemId: 'ore', quantity: 1 },
      ]);
      c.inventory[0] = null; // and an unchanged slot next to a changed one after a cached save
      await port.saveCharacters([c]);
      expect((await port.loadCharacter(c.id))?.inventory.slice(0, 2)).toEqual([
        null,
        { itemId: 'ore', quantity: 1 },
      ]);
    });

    it('a snapshot with an impossible slot is refused whole', async () => {
      const c = await port.createCharacter(makeCharacter(account, 'Overfull'));
      const bad = structuredClone(c);
      bad.inventory.push({ itemId: 'logs', quantity: 1 }); // slot 28
      bad.coins = 5;
      await expect(port.saveCharacters([bad])).rejects.toMatchObject({ code: '23514' });
      expect((await port.loadCharacter(c.id))?.coins).toBe(0);
    });

    it('skips characters deleted meanwhile instead of failing the batch', async () => {
      const keep = makeCharacter(account, 'Keeper');
      await port.createCharacter(keep);
      keep.coins = 99;
      await port.saveCharacters([keep, makeCharacter(account, 'NeverCreated')]);
      expect((await port.loadCharacter(keep.id))?.coins).toBe(99);
    });
  });

  describe('item transactions', () => {
    const setup = async () => {
      const a = makeCharacter(account, `A${Math.random().toString(36).slice(2, 8)}`, {
        coins: 100,
        inventory: inventoryOf({ 0: { itemId: 'logs', quantity: 10 } }),
      });
      const b = makeCharacter(account, `B${Math.random().toString(36).slice(2, 8)}`, { coins: 50 });
      await port.createCharacter(a);
      await port.createCharacter(b);
      return { a, b };
    };
    const trade = (a: ReturnType<typeof makeCharacter>, b: ReturnType<typeof makeCharacter>, id: string) => ({
      id,
      kind: 'trade' as const,
      conserve: true,
      changes: [
        {
          characterId: a.id,
          before: holdingsOf(a),
          after: { ...holdingsOf(a), inventory: inventoryOf({}), coins: 60 },
        },
        {
          characterId: b.id,
          before: holdingsOf(b),
          after: {
            ...holdingsOf(b),
            inventory: inventoryOf({ 4: { itemId: 'logs', quantity: 10 } }),
            coins: 90,
          },
        },
      ],
      audit: {
        tradeId: id,
        initiatorId: a.id,
        recipientId: b.id,
        initiatorOffer: [{ itemId: 'logs', quantity: 10 }],
        recipientOffer: [{ itemId: 'coins', quantity: 40 }],
        outcome: 'completed' as const,
      },
    });

    it('ok: both sides written with the audit row, and a retry of the same id is a no-op success', async () => {
      const { a, b } = await setup();
      const tx = trade(a, b, `trade-${a.id}`);
      expect(await port.applyItemTransaction(tx)).toEqual({ ok: true });
      const [la, lb] = [await port.loadCharacter(a.id), await port.loadCharacter(b.id)];
      expect(la?.coins).toBe(60);
      expect(la?.inventory[0]).toBeNull();
      expect(lb?.coins).toBe(90);
      expect(lb?.inventory[4]).toEqual({ itemId: 'logs', quantity: 10 });
      expect(await port.applyItemTransaction(tx)).toEqual({ ok: true });
      expect((await port.loadCharacter(b.id))?.coins).toBe(90);
      const audit = await sql.query('SELECT * FROM trade_audit WHERE "tradeId" = $1', [tx.id]);
      expect(audit).toHaveLength(1);
      expect(audit[0]).toMatchObject({ outcome: 'completed', initiatorId: a.id });
    });

    it('stale: holdings changed since the simulation read them, nothing written', async () => {
      const { a, b } = await setup();
      a.coins = 101; // the simulation believes something the database does not hold
      const tx = trade(a, b, `stale-${a.id}`);
      tx.changes[0]!.after.coins = 61;
      const res = await port.applyItemTransaction(tx);
      expect(res).toMatchObject({ ok: false, reason: 'stale' });
      expect((await port.loadCharacter(b.id))?.coins).toBe(50);
      expect(await sql.query('SELECT 1 FROM item_transactions WHERE id = $1', [tx.id])).toHaveLength(0);
    });

    it('not_conserved: an item or coins appearing from nowhere is refused', async () => {
      const { a, b } = await setup();
      const tx = trade(a, b, `dupe-${a.id}`);
      tx.changes[1]!.after.inventory[5] = { itemId: 'logs', quantity: 1 };
      expect(await port.applyItemTransaction(tx)).toMatchObject({ ok: false, reason: 'not_conserved' });
      const coins = trade(a, b, `coins-${a.id}`);
      coins.changes[1]!.after.coins = 91;
      expect(await port.applyItemTransaction(coins)).toMatchObject({ ok: false, reason: 'not_conserved' });
      expect((await port.loadCharacter(a.id))?.inventory[0]).toEqual({ itemId: 'logs', quantity: 10 });
    });

    it('constraint: negative coins are refused by the database and rolled back', async () => {
      const { a } = await setup();
      const tx = {
        id: `neg-${a.id}`,
        kind: 'admin' as const,
        conserve: false,
        changes: [{ characterId: a.id, before: holdingsOf(a), after: { ...holdingsOf(a), coins: -5 } }],
      };
      expect(await port.applyItemTransaction(tx)).toMatchObject({ ok: false, reason: 'constraint' });
      expect((await port.loadCharacter(a.id))?.coins).toBe(100);
    });

    it('a shop buy and a shop sell: each one transaction, recorded with its kind, idempotent', async () => {
      const { a } = await setup();
      const buy = {
        id: `shop-buy-${a.id}`,
        kind: 'shop_buy' as const,
        conserve: false,
        changes: [
          {
            characterId: a.id,
            before: holdingsOf(a),
            after: {
              ...holdingsOf(a),
              coins: 70,
              inventory: inventoryOf({
                0: { itemId: 'logs', quantity: 10 },
                1: { itemId: 'shrimp', quantity: 1 },
              }),
            },
          },
        ],
      };
      expect(await port.applyItemTransaction(buy)).toEqual({ ok: true });
      expect(await port.applyItemTransaction(buy)).toEqual({ ok: true });
      let loaded = await port.loadCharacter(a.id);
      expect(loaded?.coins).toBe(70);
      expect(loaded?.inventory[1]).toEqual({ itemId: 'shrimp', quantity: 1 });
      const sell = {
        id: `shop-sell-${a.id}`,
        kind: 'shop_sell' as const,
        conserve: false,
        changes: [
          {
            characterId: a.id,
            before: buy.changes[0]!.after,
            after: {
              ...buy.changes[0]!.after,
              coins: 75,
              inventory: inventoryOf({ 0: { itemId: 'logs', quantity: 10 } }),
            },
          },
        ],
      };
      expect(await port.applyItemTransaction(sell)).toEqual({ ok: true });
      // A sell built on holdings the database no longer has (a replay after the buy was undone) is stale.
      expect(await port.applyItemTransaction({ ...sell, id: `shop-sell2-${a.id}` })).toMatchObject({
        ok: false,
        reason: 'stale',
      });
      loaded = await port.loadCharacter(a.id);
      expect(loaded?.coins).toBe(75);
      expect(loaded?.inventory[1]).toBeNull();
      const kinds = await sql.query<{ kind: string }>(
        'SELECT kind FROM item_transactions WHERE id = ANY($1::text[]) ORDER BY kind',
        [[buy.id, sell.id]],
      );
      expect(kinds.map((r) => r.kind)).toEqual(['shop_buy', 'shop_sell']);
    });

    it('equipment is checked and written when given (equip)', async () => {
      const { a } = await setup();
      const before = holdingsOf(a, true);
      const after = { ...holdingsOf(a, true), inventory: inventoryOf({}) };
      after.equipment = { weapon: { itemId: 'logs', quantity: 10 } };
      expect(
        await port.applyItemTransaction({
          id: `eq-${a.id}`,
          kind: 'equip',
          conserve: true,
          changes: [{ characterId: a.id, before, after }],
        }),
      ).toEqual({ ok: true });
      expect((await port.loadCharacter(a.id))?.equipment).toEqual({
        weapon: { itemId: 'logs', quantity: 10 },
      });
    });

    it('records the audit of a cancelled trade', async () => {
      await port.recordTradeAudit({
        tradeId: 'cancelled-1',
        initiatorId: 'x',
        recipientId: 'y',
        initiatorOffer: [],
        recipientOffer: [],
        outcome: 'cancelled',
        reason: 'moved away',
      });
      const rows = await sql.query('SELECT outcome, reason FROM trade_audit WHERE "tradeId" = $1', [
        'cancelled-1',
      ]);
      expect(rows).toEqual([{ outcome: 'cancelled', reason: 'moved away' }]);
    });
  });

  describe('sessions, kills, health', () => {
    it('records login and logout', async () => {
      const c = await port.createCharacter(makeCharacter(account, 'Sessions'));
      const sid = await port.recordLogin(c.id, account);
      let [row] = await sql.query('SELECT * FROM "playerSessions" WHERE id = $1', [sid]);
      expect(row).toMatchObject({ characterId: c.id, accountId: account, logoutAt: null });
      await port.recordLogout(sid);
      [row] = await sql.query('SELECT * FROM "playerSessions" WHERE id = $1', [sid]);
      expect(row?.['logoutAt']).toBeInstanceOf(Date);
    });

    it('accumulates npc kills', async () => {
      const c = await port.createCharacter(makeCharacter(account, 'Slayer'));
      await port.recordNpcKills([
        { characterId: c.id, npcId: 'goblin', count: 2 },
        { characterId: c.id, npcId: 'goblin', count: 1 },
      ]);
      await port.recordNpcKills([{ characterId: c.id, npcId: 'goblin', count: 4 }]);
      expect(await sql.query('SELECT count FROM "npcKills" WHERE "characterId" = $1', [c.id])).toEqual([
        { count: 7 },
      ]);
    });

    it('is healthy while open, and notes its activity', async () => {
      const before = performance.now();
      const probe = port.healthy();
      expect(port.activity().busySinceMs).toBeGreaterThanOrEqual(before);
      expect(await probe).toBe(true);
      const a = port.activity();
      expect(a.lastCompletedMs).toBeGreaterThanOrEqual(before);
      expect(a.lastCompletedMs).toBeLessThanOrEqual(performance.now());
      expect(a.busySinceMs).toBeNull();
    });
  });

  deathLocksContract(() => ({ port, account }));
  agentsContract(() => ({ port, sql, account }));
  storedJsonContract(() => ({ sql, account }));
  loginBatchesContract(() => ({ port, sql, account }));
  socialContract(() => ({ port, sql }));
  worldLocksContract(() => ({ port, sql }));
  featureStateContract(() => ({ port, sql }));
}
