import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CharacterState } from '../../ecs/core/character-state.ts';
import { migrate } from '../../persistence/migrate.ts';
import type { ItemTransaction, ItemTransactionResult, PersistencePort } from '../../persistence/port.ts';
import { SaveScheduler } from '../../persistence/save-scheduler.ts';
import { SLICES } from '../../persistence/slices/index.ts';
import type { SqlClient } from '../../persistence/sql.ts';
import { SqlPersistence } from '../../persistence/sql-port.ts';
import { SAMPLE_SLICES, sampleSlices } from '../fixtures/slices.ts';
import { holdingsOf, inventoryOf, makeCharacter } from '../helpers/characters.ts';
import { pgliteTestDb, type TestDb } from '../helpers/db.ts';

/** A port that records what it is asked to do, with gates to hold calls open and failures to inject. */
class RecordingPort {
  events: string[] = [];
  saved: CharacterState[][] = [];
  failNextSaves = 0;
  gate: Promise<void> | undefined;
  async saveCharacters(snaps: readonly CharacterState[]): Promise<void> {
    this.events.push(`save:start:${snaps.map((s) => s.name).join(',')}`);
    if (this.gate) await this.gate;
    if (this.failNextSaves > 0) {
      this.failNextSaves--;
      this.events.push('save:fail');
      throw new Error('database unavailable');
    }
    this.saved.push(structuredClone([...snaps]));
    this.events.push(`save:done:${snaps.map((s) => `${s.name}@${s.coins}`).join(',')}`);
  }
  async applyItemTransaction(tx: ItemTransaction): Promise<ItemTransactionResult> {
    this.events.push(`tx:start:${tx.id}`);
    if (this.gate) await this.gate;
    this.events.push(`tx:done:${tx.id}`);
    return { ok: true };
  }
  asPort(): PersistencePort {
    return this as unknown as PersistencePort;
  }
}

const quiet = { info: () => {}, warn: () => {}, error: () => {} };
const logged: string[] = [];
const recordingLogger = {
  info: () => {},
  warn: () => {},
  error: (_o: object, msg?: string) => void logged.push(msg ?? ''),
};

function gate() {
  let open!: () => void;
  const p = new Promise<void>((r) => {
    open = r;
  });
  return { p, open };
}

describe('SaveScheduler with a recording port', () => {
  it('copies snapshots: later mutation by the caller does not change what is written', async () => {
    const port = new RecordingPort();
    const saves = new SaveScheduler(port.asPort(), { saveIntervalMs: 60_000, logger: quiet });
    const c = makeCharacter('acc', 'Copy', {
      coins: 5,
      inventory: inventoryOf({ 0: { itemId: 'logs', quantity: 1 } }),
      equipment: { weapon: { itemId: 'bronze_sword', quantity: 1 } },
    });
    saves.itemsChanged(c);
    c.coins = 999;
    c.inventory[0]!.quantity = 50;
    c.equipment.weapon!.itemId = 'rune_sword';
    c.skills.attack.xp = 1e6;
    c.position.x = 42;
    saves.flushTick();
    await saves.flushAll();
    expect(port.saved).toHaveLength(1);
    const written = port.saved[0]?.[0];
    expect(written?.coins).toBe(5);
    expect(written?.inventory[0]).toEqual({ itemId: 'logs', quantity: 1 });
    expect(written?.equipment.weapon?.itemId).toBe('bronze_sword');
    expect(written?.skills.attack.xp).toBe(0);
    expect(written?.position.x).toBe(0);
  });

  it('logouts of one turn share one write; a repeated logout keeps the newest snapshot', async () => {
    const port = new RecordingPort();
    const saves = new SaveScheduler(port.asPort(), { saveIntervalMs: 60_000, logger: quiet });
    const leavers = ['L1', 'L2', 'L3'].map((n) => makeCharacter('acc', n));
    const done = leavers.map((c) => saves.logout(c));
    (leavers[0] as CharacterState).coins = 9;
    done.push(saves.logout(leavers[0] as CharacterState));
    await Promise.all(done);
    expect(port.events).toEqual(['save:start:L1,L2,L3', 'save:done:L1@9,L2@0,L3@0']);
    // A logout in a later turn is a write of its own.
    await saves.logout(makeCharacter('acc', 'L4'));
    expect(port.saved.map((b) => b.map((c) => c.name))).toEqual([['L1', 'L2', 'L3'], ['L4']]);
  });

  it('a login right after a logout waits for the shared write', async () => {
    const port = new RecordingPort();
    const saves = new SaveScheduler(port.asPort(), { saveIntervalMs: 60_000, logger: quiet });
    const c = makeCharacter('acc', 'Back');
    const g = gate();
    port.gate = g.p;
    void saves.logout(c);
    let loaded = false;
    const login = saves.waitForPending(c.id).then(() => {
      loaded = true;
    });
    await new Promise((r) => setTimeout(r, 20));
    expect(loaded).toBe(false);
    g.open();
    await login;
    expect(port.events).toEqual(['save:start:Back', 'save:done:Back@0']);
  });

  it('a logout after a transaction naming a character already in the batch waits for it without deadlock', async () => {
    const port = new RecordingPort();
    const saves = new SaveScheduler(port.asPort(), { saveIntervalMs: 60_000, logger: quiet });
    const x = makeCharacter('acc', 'X');
    const z = makeCharacter('acc', 'Z');
    const first = saves.logout(x);
    const tx = saves.runTransaction({
      id: 'pickup',
      kind: 'admin',
      conserve: false,
      changes: [
        { characterId: x.id, before: holdingsOf(x), after: holdingsOf(x) },
        { characterId: z.id, before: holdingsOf(z), after: holdingsOf(z) },
      ],
    });
    const second = saves.logout(z);
    await Promise.all([first, tx, second]);
    expect(port.events).toEqual([
      'save:start:X',
      'save:done:X@0',
      'tx:start:pickup',
      'tx:done:pickup',
      'save:start:Z',
      'save:done:Z@0',
    ]);
  });

  it('orders work per character: a transaction waits for the earlier save of its character', async () => {
    const port = new RecordingPort();
    const saves = new SaveScheduler(port.asPort(), { saveIntervalMs: 60_000, logger: quiet });
    const a = makeCharacter('acc', 'A');
    const g = gate();
    port.gate = g.p;
    saves.itemsChanged(a);
    saves.flushTick();
    const tx = saves.runTransaction({
      id: 't1',
      kind: 'admin',
      conserve: false,
      changes: [{ characterId: a.id, before: holdingsOf(a), after: holdingsOf(a) }],
    });
    await new Promise((r) => setTimeout(r, 20));
    expect(port.events).toEqual(['save:start:A']);
    g.open();
    await tx;
    expect(port.events).toEqual(['save:start:A', 'save:done:A@0', 'tx:start:t1', 'tx:done:t1']);
  });

  it('a snapshot taken while a transaction is in flight gets the transaction’s holdings', async () => {
    const port = new RecordingPort();
    const saves = new SaveScheduler(port.asPort(), { saveIntervalMs: 60_000, logger: quiet });
    const a = makeCharacter('acc', 'Trader', { coins: 100 });
    const g = gate();
    port.gate = g.p;
    const after = {
      ...holdingsOf(a),
      coins: 40,
      inventory: inventoryOf({ 0: { itemId: 'logs', quantity: 1 } }),
    };
    const tx = saves.runTransaction({
      id: 't2',
      kind: 'shop_buy',
      conserve: false,
      changes: [{ characterId: a.id, before: holdingsOf(a), after }],
    });
    a.position = { x: 5, y: 10, z: 5 }; // the simulation moves on, holdings still pre-trade
    saves.dirty(a);
    const flushed = saves.flushAll();
    g.open();
    await tx;
    await flushed;
    const written = port.saved.at(-1)?.[0];
    expect(written?.coins).toBe(40);
    expect(written?.inventory[0]).toEqual({ itemId: 'logs', quantity: 1 });
    expect(written?.position).toEqual({ x: 5, y: 10, z: 5 });
  });

  it('a snapshot waiting for the interval is written before a later transaction of its character', async () => {
    const port = new RecordingPort();
    const saves = new SaveScheduler(port.asPort(), { saveIntervalMs: 60_000, logger: quiet });
    const a = makeCharacter('acc', 'Banker', { coins: 3 });
    saves.dirty(a); // pre-transaction state, would otherwise be written after the deposit and undo it
    await saves.runTransaction({
      id: 't3',
      kind: 'bank_deposit',
      conserve: false,
      changes: [{ characterId: a.id, before: holdingsOf(a), after: holdingsOf(a) }],
    });
    expect(port.events).toEqual(['save:start:Banker', 'save:done:Banker@3', 'tx:start:t3', 'tx:done:t3']);
    expect(saves.pendingCount).toBe(0);
  });

  it('retries a failed save with backoff, logs it, and writes the newest snapshot', async () => {
    const port = new RecordingPort();
    logged.length = 0;
    const saves = new SaveScheduler(port.asPort(), {
      saveIntervalMs: 60_000,
      logger: recordingLogger,
      retryBaseMs: 5,
    });
    const a = makeCharacter('acc', 'Retry', { coins: 1 });
    port.failNextSaves = 2;
    saves.itemsChanged(a);
    saves.flushTick();
    a.coins = 2;
    saves.dirty(a); // newer snapshot arrives while the first one is failing
    await saves.flushAll();
    expect(port.events.filter((e) => e === 'save:fail')).toHaveLength(2);
    expect(logged.filter((m) => m.includes('retrying'))).toHaveLength(2);
    expect(port.saved.flat().at(-1)?.coins).toBe(2);
    expect(saves.pendingCount).toBe(0);
  });

  it('a character dirty tick after tick keeps one waiting snapshot, written as it last was', async () => {
    const port = new RecordingPort();
    const saves = new SaveScheduler(port.asPort(), { saveIntervalMs: 60_000, logger: quiet });
    const a = makeCharacter('acc', 'Walker', {
      inventory: inventoryOf({ 0: { itemId: 'logs', quantity: 1 }, 3: { itemId: 'tuna', quantity: 2 } }),
      equipment: { weapon: { itemId: 'bronze_sword', quantity: 1 } },
      bank: [{ itemId: 'coins', quantity: 5 }],
    });
    saves.dirty(a);
    for (let step = 1; step <= 5; step++) {
      a.position = { x: step, y: 10, z: -step };
      a.skills.woodcutting.xp += 10;
      saves.dirty(a);
    }
    a.inventory[0] = null;
    a.inventory[7] = { itemId: 'logs', quantity: 3 };
    delete a.equipment.weapon;
    a.bank = [];
    saves.dirty(a);
    expect(saves.pendingCount).toBe(1);
    a.position.x = 999; // after the hand-over: not in what is written
    await saves.flushAll();
    const written = port.saved.flat();
    expect(written).toHaveLength(1);
    expect(written[0]?.position).toEqual({ x: 5, y: 10, z: -5 });
    expect(written[0]?.skills.woodcutting.xp).toBe(50);
    expect(written[0]?.inventory[0]).toBeNull();
    expect(written[0]?.inventory[3]).toEqual({ itemId: 'tuna', quantity: 2 });
    expect(written[0]?.inventory[7]).toEqual({ itemId: 'logs', quantity: 3 });
    expect(written[0]?.equipment).toEqual({});
    expect(written[0]?.bank).toEqual([]);
  });

  it('every registered slice reaches the write, however the snapshot was handed over', async () => {
    const port = new RecordingPort();
    const saves = new SaveScheduler(port.asPort(), { saveIntervalMs: 60_000, logger: quiet });
    const withSlices = (n: string) => ({ ...makeCharacter('acc', n), slices: sampleSlices() });
    // Items changed (flushTick), dirty twice (the second refreshes the waiting copy in place), logout.
    const items = withSlices('Items');
    saves.itemsChanged(items);
    saves.flushTick();
    const walker = makeCharacter('acc', 'Walker');
    saves.dirty(walker);
    walker.slices = sampleSlices();
    saves.dirty(walker);
    await saves.flushAll();
    await saves.logout(withSlices('Leaver'));
    const written = port.saved.flat();
    expect(written.map((s) => s.name).sort()).toEqual(['Items', 'Leaver', 'Walker']);
    for (const s of written) {
      for (const slice of SLICES) {
        expect(s.slices?.[slice.name], `${s.name}: slice ${slice.name}`).toEqual(SAMPLE_SLICES[slice.name]);
      }
    }
  });

  it('writes dirty characters on the save interval, not on flushTick', async () => {
    const port = new RecordingPort();
    const saves = new SaveScheduler(port.asPort(), { saveIntervalMs: 30, logger: quiet });
    saves.dirty(makeCharacter('acc', 'Walker'));
    saves.flushTick();
    expect(port.saved).toHaveLength(0);
    saves.start();
    await new Promise((r) => setTimeout(r, 100));
    await saves.stop();
    expect(port.saved.flat().map((s) => s.name)).toEqual(['Walker']);
  });
});

describe('SaveScheduler on PGlite', () => {
  let db: TestDb;
  let sql: SqlClient;
  let port: SqlPersistence;
  beforeAll(async () => {
    db = pgliteTestDb();
    sql = await db.connect();
    await migrate(sql);
    port = new SqlPersistence(sql);
  });
  afterAll(async () => {
    await sql?.close();
    await db?.destroy();
  });

  it('logout then login: the load waits for the pending save and sees it', async () => {
    const account = (await port.createAnonymousUser('p')).id;
    const c = await port.createCharacter(makeCharacter(account, 'Leaver'));
    const saves = new SaveScheduler(port, { saveIntervalMs: 60_000, logger: quiet });
    c.coins = 777;
    c.position = { x: 3.5, y: 10, z: 4.5 };
    c.inventory = inventoryOf({ 2: { itemId: 'ore', quantity: 3 } });
    void saves.logout(c);
    await saves.waitForPending(c.id);
    const loaded = await port.loadCharacter(c.id);
    expect(loaded?.coins).toBe(777);
    expect(loaded?.position).toEqual({ x: 3.5, y: 10, z: 4.5 });
    expect(loaded?.inventory[2]).toEqual({ itemId: 'ore', quantity: 3 });
  });

  it('every slice a snapshot carries is written and loads back (social: only by its own actions)', async () => {
    const account = (await port.createAnonymousUser('s')).id;
    const c = await port.createCharacter(makeCharacter(account, 'Sliced'));
    const saves = new SaveScheduler(port, { saveIntervalMs: 60_000, logger: quiet });
    c.slices = sampleSlices();
    saves.dirty(c);
    await saves.flushAll();
    const { social: _written, ...expected } = sampleSlices();
    expect((await port.loadCharacter(c.id))?.slices).toEqual(expected);
  });

  it('a dirty snapshot still waiting for the interval is written before a login loads', async () => {
    const account = (await port.createAnonymousUser('q')).id;
    const c = await port.createCharacter(makeCharacter(account, 'Idler'));
    const saves = new SaveScheduler(port, { saveIntervalMs: 60_000, logger: quiet });
    c.skills.mining = { level: 2, xp: 83 };
    saves.dirty(c);
    await saves.waitForPending(c.id);
    expect((await port.loadCharacter(c.id))?.skills.mining).toEqual({ level: 2, xp: 83 });
  });
});
