import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CharacterState, ItemStack } from '../../ecs/core/character-state.ts';
import { migrate } from '../../persistence/migrate.ts';
import type { DeathLock, Holdings, ItemTransactionResult } from '../../persistence/port.ts';
import { SaveScheduler } from '../../persistence/save-scheduler.ts';
import type { SqlClient, SqlTx } from '../../persistence/sql.ts';
import { SqlPersistence } from '../../persistence/sql-port.ts';
import { inventoryOf, makeCharacter } from '../helpers/characters.ts';
import { pgliteTestDb, type TestDb } from '../helpers/db.ts';

/**
 * Death locks against the snapshots around them, through the real SaveScheduler and the real SqlPersistence
 * on PGlite. The simulation moves a death's items to the ground at once and never waits for the lock
 * (src/persistence-handoff.ts): every snapshot it hands over after the death already lacks them, and the
 * respawned player may change its items again the next tick. So whatever the database does (slow, down,
 * an answer lost), it must end with each dropped item in the lock and nowhere else, and with the newest
 * holdings the simulation handed over.
 */

/** A SqlClient that can refuse like a database that went away (the code of a refused connection). */
class Outage {
  down = false;
  /** Calls still to refuse, then it answers again. */
  failNext = 0;
  check(): void {
    if (!this.down && this.failNext === 0) return;
    if (this.failNext > 0) this.failNext--;
    throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
  }
  wrap(sql: SqlClient): SqlClient {
    return {
      query: async <T>(text: string, params?: unknown[]) => {
        this.check();
        return sql.query<T>(text, params);
      },
      exec: async (text: string) => {
        this.check();
        return sql.exec(text);
      },
      transaction: async <T>(fn: (tx: SqlTx) => Promise<T>) => {
        this.check();
        return sql.transaction(fn);
      },
      close: () => sql.close(),
    };
  }
}

/** The real port, with death locks that can be held open (a slow database) or whose answer gets lost. */
class TestPort extends SqlPersistence {
  readonly lockCalls: string[] = [];
  readonly gates = new Map<string, Promise<void>>();
  /** Lock ids whose next call commits but then throws, as a connection dropped before the answer. */
  readonly loseAnswer = new Set<string>();
  override async createDeathLock(lock: DeathLock): Promise<ItemTransactionResult> {
    this.lockCalls.push(lock.id);
    await this.gates.get(lock.id);
    const res = await super.createDeathLock(lock);
    if (this.loseAnswer.delete(lock.id)) {
      throw Object.assign(new Error('write CONNECTION_CLOSED'), { code: 'CONNECTION_CLOSED' });
    }
    return res;
  }
  hold(lockId: string): () => void {
    let open!: () => void;
    this.gates.set(
      lockId,
      new Promise<void>((r) => {
        open = r;
      }),
    );
    return open;
  }
}

const quiet = { info: () => {}, warn: () => {}, error: () => {} };
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

const START: Record<number, ItemStack> = {
  0: { itemId: 'bronze_sword', quantity: 1 },
  1: { itemId: 'logs', quantity: 5 },
  2: { itemId: 'shrimp', quantity: 2 },
};

const holdings = (s: CharacterState): Holdings =>
  structuredClone({ inventory: s.inventory, coins: s.coins, bank: s.bank, equipment: s.equipment });

/** What the death system does to the live state: the stack in `slot` leaves it, one lock holds it. */
function die(live: CharacterState, slot: number): DeathLock {
  const before = holdings(live);
  const stack = live.inventory[slot];
  if (!stack) throw new Error(`nothing in slot ${slot}`);
  live.inventory[slot] = null;
  return {
    id: `death-test-${randomUUID()}`,
    characterId: live.id,
    position: { ...live.position },
    items: [{ ...stack }],
    before,
    after: holdings(live),
  };
}

function count(itemId: string, ...places: readonly (ItemStack | null | undefined)[][]): number {
  let n = 0;
  for (const place of places) for (const s of place) if (s?.itemId === itemId) n += s.quantity;
  return n;
}

describe('SaveScheduler: death locks and the snapshots around them (PGlite)', () => {
  let db: TestDb;
  let sql: SqlClient;
  /** Reads what the database holds, outside the port under test (and its slot cache). */
  let reader: SqlPersistence;
  beforeAll(async () => {
    db = pgliteTestDb();
    sql = await db.connect();
    await migrate(sql);
    reader = new SqlPersistence(sql);
  });
  afterAll(async () => {
    await sql?.close();
    await db?.destroy();
  });

  /** A character in the database with START, the live copy the simulation would hold, and a scheduler. */
  async function setup(opts: { retryBaseMs?: number; saveIntervalMs?: number } = {}) {
    const account = (await reader.createAnonymousUser('d')).id;
    const created = await reader.createCharacter(
      makeCharacter(account, `D${randomUUID().slice(0, 8)}`, { inventory: inventoryOf(START) }),
    );
    const live = structuredClone(created);
    const outage = new Outage();
    const port = new TestPort(outage.wrap(sql));
    const saves = new SaveScheduler(port, {
      saveIntervalMs: opts.saveIntervalMs ?? 60_000,
      logger: quiet,
      retryBaseMs: opts.retryBaseMs ?? 10,
      retryMaxMs: 50,
    });
    return { account, live, outage, port, saves };
  }

  async function stored(characterId: string) {
    const c = (await reader.loadCharacter(characterId)) as CharacterState;
    const rows = await sql.query<{ items: string }>(
      'SELECT items::text AS items FROM "playerDeaths" WHERE "characterId" = $1',
      [characterId],
    );
    const locked = rows.flatMap((r) => JSON.parse(r.items) as ItemStack[]);
    return { ...c, locks: rows.length, locked };
  }

  it('(a) a dirty snapshot from before the death is written ahead of the lock; the interval writes nothing older after it', async () => {
    const { live, saves } = await setup({ saveIntervalMs: 20 });
    saves.start();
    // Tick 1: the player walks (position only): a snapshot with the pre-death holdings waits for the interval.
    live.position = { x: 7, y: 10, z: 7 };
    saves.dirty(live);
    // Tick 2: it dies; the hand-off gives the lock first, then the tick's snapshot, then flushTick.
    const lock = die(live, 1);
    const result = saves.createDeathLock(lock);
    live.position = { x: 100, y: 0, z: 100 };
    saves.itemsChanged(live);
    saves.flushTick();
    // Later ticks: walking from the spawn, written at the intervals.
    await pause(60);
    live.position = { x: 101, y: 0, z: 100 };
    saves.dirty(live);
    await pause(60);
    await saves.stop();
    expect(await result).toEqual({ ok: true });
    const db = await stored(live.id);
    expect(db.inventory).toEqual(live.inventory);
    expect(db.position).toEqual({ x: 101, y: 0, z: 100 });
    expect(db.locked).toEqual([{ itemId: 'logs', quantity: 5 }]);
    expect(count('logs', db.inventory, db.locked)).toBe(5);
  });

  it('(a) a pre-death snapshot whose save fails and is retried does not take a snapshot handed over after the lock', async () => {
    const { live, outage, port, saves } = await setup({ retryBaseMs: 30 });
    live.position = { x: 7, y: 10, z: 7 };
    saves.dirty(live);
    // The database refuses the next call: the save of the waiting snapshot, which the lock waits for.
    outage.failNext = 1;
    const lock = die(live, 1);
    const result = saves.createDeathLock(lock);
    live.position = { x: 100, y: 0, z: 100 };
    saves.itemsChanged(live);
    saves.flushTick();
    // The next tick, before the retry: the player walks from the spawn (its snapshot lacks the logs).
    await pause(5);
    live.position = { x: 101, y: 0, z: 100 };
    saves.dirty(live);
    // The retry runs (the lock after it), then the interval or the shutdown writes what still waits.
    expect(await result).toEqual({ ok: true });
    await saves.flushAll();
    expect(port.lockCalls).toEqual([lock.id]);
    const db = await stored(live.id);
    expect(db.inventory).toEqual(live.inventory);
    expect(db.position).toEqual({ x: 101, y: 0, z: 100 });
    expect(db.locked).toEqual([{ itemId: 'logs', quantity: 5 }]);
  });
});
