import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CharacterState, ItemStack } from '../../ecs/core/character-state.ts';
import { type Command, CommandQueue } from '../../ecs/core/commands.ts';
import { stepWorld } from '../../ecs/core/tick.ts';
import { createGameWorld } from '../../ecs/game.ts';
import { migrate } from '../../persistence/migrate.ts';
import type { DeathLock, Holdings, ItemTransactionResult } from '../../persistence/port.ts';
import { SaveScheduler } from '../../persistence/save-scheduler.ts';
import type { SqlClient, SqlTx } from '../../persistence/sql.ts';
import { SqlPersistence } from '../../persistence/sql-port.ts';
import { handOff } from '../../src/persistence-handoff.ts';
import { schedulerSink } from '../../src/persistence-sink.ts';
import { inventoryOf, makeCharacter } from '../helpers/characters.ts';
import { pgliteTestDb, type TestDb } from '../helpers/db.ts';
import { testContent } from '../helpers/sim-content.ts';

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

function totals(...places: readonly (ItemStack | null | undefined)[][]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const place of places) for (const s of place) if (s) out[s.itemId] = (out[s.itemId] ?? 0) + s.quantity;
  return out;
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
  async function setup(opts: { retryBaseMs?: number; saveIntervalMs?: number; errors?: string[] } = {}) {
    const account = (await reader.createAnonymousUser('d')).id;
    const created = await reader.createCharacter(
      makeCharacter(account, `D${randomUUID().slice(0, 8)}`, { inventory: inventoryOf(START) }),
    );
    const live = structuredClone(created);
    const outage = new Outage();
    const port = new TestPort(outage.wrap(sql));
    const saves = new SaveScheduler(port, {
      saveIntervalMs: opts.saveIntervalMs ?? 60_000,
      logger: { ...quiet, error: (_o: object, msg?: string) => void opts.errors?.push(msg ?? '') },
      retryBaseMs: opts.retryBaseMs ?? 10,
      retryMaxMs: 50,
    });
    return { account, live, outage, port, saves };
  }

  /**
   * The death's tick as the hand-off runs it, with the lock's write held open until `open()`: the lock,
   * then the death's holdings in the tick's item batch.
   */
  function dieWithLockHeld(port: TestPort, saves: SaveScheduler, live: CharacterState, slot: number) {
    const lock = die(live, slot);
    const open = port.hold(lock.id);
    const result = saves.createDeathLock(lock);
    saves.itemsChanged(live);
    saves.flushTick();
    return { lock, open, result };
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

  it('(b) items the respawned player picks up while its lock is still being written are not undone', async () => {
    const { live, port, saves } = await setup();
    const { open, result } = dieWithLockHeld(port, saves, live, 1);
    // Next tick: it picks up an ordinary ground item (committed within the tick: itemsChanged).
    live.inventory[5] = { itemId: 'feather', quantity: 3 };
    saves.itemsChanged(live);
    saves.flushTick();
    // And walks: a dirty snapshot waits for the interval.
    live.position = { x: 3, y: 10, z: 3 };
    saves.dirty(live);
    await pause(20);
    open();
    await saves.flushAll();
    expect(await result).toEqual({ ok: true });
    const db = await stored(live.id);
    expect(db.inventory).toEqual(live.inventory);
    expect(db.inventory[5]).toEqual({ itemId: 'feather', quantity: 3 });
    expect(db.locked).toEqual([{ itemId: 'logs', quantity: 5 }]);
  });

  it('(b) a kept item dropped after the respawn and picked up by another player is in one inventory only', async () => {
    const { account, live, port, saves } = await setup();
    const other = await reader.createCharacter(makeCharacter(account, `O${randomUUID().slice(0, 8)}`));
    const { open, result } = dieWithLockHeld(port, saves, live, 1);
    // Next tick: the dead player drops the sword it kept, and the other player picks it up.
    live.inventory[0] = null;
    other.inventory[0] = { itemId: 'bronze_sword', quantity: 1 };
    saves.itemsChanged(live);
    saves.itemsChanged(other);
    saves.flushTick();
    // The tick after: the dead player leaves (its final snapshot, without the sword).
    const left = saves.logout(live);
    await pause(20);
    open();
    await Promise.all([result, left, saves.flushAll()]);
    expect(await result).toEqual({ ok: true });
    const db = await stored(live.id);
    const otherDb = await stored(other.id);
    expect(db.inventory).toEqual(live.inventory);
    expect(count('bronze_sword', db.inventory, db.locked, otherDb.inventory)).toBe(1);
    expect(count('logs', db.inventory, db.locked)).toBe(5);
  });

  it('(b) a second death while the first lock is still being written is not refused as stale', async () => {
    const { live, port, saves } = await setup();
    const { open, result: firstResult } = dieWithLockHeld(port, saves, live, 1);
    // Next tick it picks up feathers; a few ticks later it dies again and drops them.
    live.inventory[5] = { itemId: 'feather', quantity: 3 };
    saves.itemsChanged(live);
    saves.flushTick();
    await pause(10);
    const second = die(live, 5);
    const secondResult = saves.createDeathLock(second);
    saves.itemsChanged(live);
    saves.flushTick();
    await pause(10);
    open();
    await saves.flushAll();
    expect(await firstResult).toEqual({ ok: true });
    expect(await secondResult).toEqual({ ok: true });
    const db = await stored(live.id);
    expect(db.inventory).toEqual(live.inventory);
    expect(db.locks).toBe(2);
    expect(count('logs', db.inventory, db.locked)).toBe(5);
    expect(count('feather', db.inventory, db.locked)).toBe(3);
  });

  it('(b) through the world and the hand-off: an item move the tick after the death is not undone by the slow lock', async () => {
    const port = new SqlPersistence(sql);
    const problems: string[] = [];
    const log = {
      info: () => {},
      warn: (o: object, m?: string) => void problems.push(`${m} ${JSON.stringify(o)}`),
      error: (o: object, m?: string) => void problems.push(`${m} ${JSON.stringify(o)}`),
    };
    const saves = new SaveScheduler(port, { saveIntervalMs: 60_000, logger: log });
    const account = (await port.createAnonymousUser('w')).id;
    const created = await port.createCharacter(
      makeCharacter(account, 'Slowdeath', {
        position: { x: 40, y: 0, z: 60 },
        inventory: inventoryOf({
          ...START,
          3: { itemId: 'feather', quantity: 12 },
          4: { itemId: 'bones', quantity: 1 },
        }),
      }),
    );
    const world = createGameWorld({ content: testContent(), seed: 1 });
    const sink = schedulerSink({ port, saves }, log);
    const queue = new CommandQueue();
    const tick = (cmds: Command[]) => {
      stepWorld(world, cmds, Date.now());
      handOff(world, sink, queue, log);
    };
    const id = created.id;
    tick([{ type: 'join', characterId: id, accountId: account, state: created }]);
    // Every lock of this death is held open, as a slow database would, until `open`.
    let open!: () => void;
    const slow = new Promise<void>((r) => {
      open = r;
    });
    const createDeathLock = port.createDeathLock.bind(port);
    port.createDeathLock = async (lock) => {
      await slow;
      return createDeathLock(lock);
    };
    tick([{ type: 'damage', characterId: id, amount: 500 }]);
    const locks = world.persist.deathLocks.length;
    expect(locks).toBeGreaterThan(0);
    const player = world.players.get(id);
    const from = player?.state.inventory.findIndex((s) => s !== null) ?? -1;
    expect(from).toBeGreaterThanOrEqual(0);
    // Next tick: the respawned player moves a kept item to slot 20.
    tick([{ type: 'inventoryMove', characterId: id, from, to: 20 }]);
    expect(player?.state.inventory[20]).not.toBeNull();
    await pause(20);
    open();
    await saves.flushAll();
    expect(problems).toEqual([]);
    // The database holds what the world holds, and each dropped stack in a lock: every item once.
    const saved = await stored(id);
    expect(saved.inventory).toEqual(player?.state.inventory);
    expect(saved.locks).toBe(locks);
    expect(totals(saved.inventory, saved.locked)).toEqual(totals(created.inventory));
  });

  it('(c) a lock the database could not take (down) is retried until written; the snapshots stay behind it', async () => {
    const errors: string[] = [];
    const { live, outage, port, saves } = await setup({ errors });
    outage.down = true;
    const lock = die(live, 1);
    const result = saves.createDeathLock(lock);
    live.position = { x: 100, y: 0, z: 100 };
    saves.itemsChanged(live);
    saves.flushTick();
    await pause(60);
    outage.down = false;
    await saves.flushAll();
    const db = await stored(live.id);
    expect(count('logs', db.inventory, db.locked)).toBe(5);
    expect(db.locked).toEqual([{ itemId: 'logs', quantity: 5 }]);
    expect(db.inventory).toEqual(live.inventory);
    expect(await result).toEqual({ ok: true });
    expect(port.lockCalls.length).toBeGreaterThan(1);
    expect(errors).toContain('death lock failed; retrying');
  });

  it('(c) a lock committed whose answer was lost is retried as a no-op: the items leave the character once', async () => {
    const { live, port, saves } = await setup();
    const lock = die(live, 1);
    port.loseAnswer.add(lock.id);
    const result = saves.createDeathLock(lock);
    saves.itemsChanged(live);
    saves.flushTick();
    await saves.flushAll();
    expect(await result).toEqual({ ok: true });
    expect(port.lockCalls).toEqual([lock.id, lock.id]);
    const db = await stored(live.id);
    expect(db.inventory).toEqual(live.inventory);
    expect(db.locks).toBe(1);
    expect(db.locked).toEqual([{ itemId: 'logs', quantity: 5 }]);
  });

  it('(c) a lock the database refuses (stale) is tried once; the snapshot after it is still written', async () => {
    const { live, port, saves } = await setup();
    // The database does not hold what the lock expects (here: an extra stack only the lock's `before` has).
    live.inventory[9] = { itemId: 'bones', quantity: 1 };
    const lock = die(live, 9);
    const result = await saves.createDeathLock(lock);
    expect(result).toMatchObject({ ok: false, reason: 'stale' });
    expect(port.lockCalls).toEqual([lock.id]);
    saves.itemsChanged(live);
    await saves.flushAll();
    const db = await stored(live.id);
    expect(db.locks).toBe(0);
    expect(count('bones', db.inventory, db.locked)).toBe(0);
    expect(db.inventory).toEqual(live.inventory);
  });
});
