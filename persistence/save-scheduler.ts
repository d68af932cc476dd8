import type { CharacterState } from '../ecs/core/character-state.ts';
import type { DeathLock, Holdings, ItemTransaction, ItemTransactionResult, PersistencePort } from './port.ts';
import { copyCharacter as copy, copyCharacterInto } from './snapshot-copy.ts';
import { isConstraintViolation } from './sql.ts';

type HoldingsChange = { characterId: string; before: Holdings; after: Holdings };

/**
 * Saving off the tick: the simulation hands over snapshots and never waits on the database.
 *
 * - itemsChanged: written by the next flushTick() (contract §5: item changes committed within a tick).
 * - dirty: the latest snapshot is kept and written every saveIntervalMs.
 * - Per-character lanes order all work: a batch or transaction starts after earlier work on each of its
 *   characters, so a login waiting on waitForPending() never loads a stale row.
 * - A snapshot handed over while an item transaction of that character is in flight was taken before
 *   the simulation saw the result; when the transaction commits, its holdings are replaced by the
 *   transaction's `after` so the save cannot undo the trade. (The simulation blocks item changes of a
 *   character with a transaction pending, as trades and banks do.) Not so for a death lock: the
 *   simulation applied it already, and the player may change its items again while it is written.
 * - A failed write (and a death lock the database did not answer) is logged and retried with backoff;
 *   newer snapshots replace older ones between tries, except those handed over after a transaction or
 *   death lock of the character was queued behind the write. A snapshot the database refuses outright (a
 *   constraint) is logged as an error and dropped.
 */

export interface SaveLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface SaveSchedulerOptions {
  saveIntervalMs: number;
  logger: SaveLogger;
  /** First retry pause; doubles up to retryMaxMs. */
  retryBaseMs?: number;
  retryMaxMs?: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Logouts collected in one turn of the event loop, written together. */
interface LogoutBatch {
  snaps: Map<string, CharacterState>;
  /** Work already queued for these characters when they logged out: the batch waits for it. */
  before: Promise<void>[];
  written: Promise<void>;
  /** The enqueue sequence number when the batch began. */
  startSeq: number;
}

export class SaveScheduler {
  private readonly lanes = new Map<string, Promise<void>>();
  private logouts: LogoutBatch | null = null;
  /** Sequence number of the last enqueue, and of the last one per character lane. */
  private seq = 0;
  private readonly laneSeq = new Map<string, number>();
  private readonly items = new Map<string, CharacterState>();
  private readonly dirtySet = new Map<string, CharacterState>();
  /** Item transactions in flight per character, and the snapshots handed over meanwhile. */
  private readonly txInFlight = new Map<string, number>();
  private readonly takenDuringTx = new Map<string, Set<CharacterState>>();
  /**
   * Death locks queued or in flight per character. Counted apart: snapshots handed over meanwhile are
   * not tracked (see createDeathLock), so a lock retried through an outage neither holds a copy per
   * tick nor stops the waiting dirty snapshot from being refreshed in place.
   */
  private readonly locksInFlight = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private readonly retryBaseMs: number;
  private readonly retryMaxMs: number;

  constructor(
    private readonly port: PersistencePort,
    private readonly opts: SaveSchedulerOptions,
  ) {
    this.retryBaseMs = opts.retryBaseMs ?? 200;
    this.retryMaxMs = opts.retryMaxMs ?? 10_000;
  }

  itemsChanged(s: CharacterState): void {
    const snap = this.track(copy(s));
    this.items.set(s.id, snap);
    this.dirtySet.delete(s.id);
  }

  dirty(s: CharacterState): void {
    // Moving players are dirty every tick: refresh the waiting snapshot instead of a new deep copy each
    // time (thousands a tick with thousands online, each garbage the collector must promote and sweep
    // before the interval writes it). Not while an item transaction of theirs is in flight: snapshots
    // taken then are tracked and patched with its result, and stay distinct.
    const waiting = this.dirtySet.get(s.id);
    if (waiting !== undefined && !this.txInFlight.has(s.id) && !this.items.has(s.id)) {
      copyCharacterInto(waiting, s);
      return;
    }
    const snap = this.track(copy(s));
    // A full snapshot supersedes an older one waiting for this tick's item batch; keep the earlier deadline.
    if (this.items.has(s.id)) this.items.set(s.id, snap);
    else this.dirtySet.set(s.id, snap);
  }

  flushTick(): void {
    if (this.items.size === 0) return;
    const batch = [...this.items.values()];
    this.items.clear();
    void this.write(batch);
  }

  /**
   * Saves the character now (and anything pending for it), resolving once it is written. Logouts of one
   * turn of the event loop (a tick's leavers, a mass disconnect, shutdown) share one write: 2,000 single
   * saves took PGlite longer than the shutdown allows. Each character's lane holds its place from this
   * call on, so a login that follows waits for the save.
   */
  logout(s: CharacterState): Promise<void> {
    this.items.delete(s.id);
    this.dirtySet.delete(s.id);
    const snap = this.track(copy(s));
    const current = this.logouts;
    if (current?.snaps.has(s.id)) {
      current.snaps.set(s.id, snap);
      return current.written;
    }
    // Work queued for this character since the batch began may wait on the batch itself (a trade or
    // death-lock write that also names a character already in it): then this logout starts a new one.
    let batch = current;
    if (batch !== null && (this.laneSeq.get(s.id) ?? 0) > batch.startSeq) batch = null;
    if (batch === null) {
      const b: LogoutBatch = { snaps: new Map(), before: [], written: Promise.resolve(), startSeq: this.seq };
      b.written = new Promise<void>((resolve) => setImmediate(resolve)).then(async () => {
        if (this.logouts === b) this.logouts = null;
        await Promise.all(b.before);
        await this.writeWithRetry([...b.snaps.values()]);
      });
      batch = this.logouts = b;
    }
    const b = batch;
    b.snaps.set(s.id, snap);
    const prior = this.lanes.get(s.id);
    if (prior !== undefined) b.before.push(prior);
    return this.enqueue([s.id], () => b.written);
  }

  async waitForPending(characterId: string): Promise<void> {
    for (;;) {
      const pending = this.items.get(characterId) ?? this.dirtySet.get(characterId);
      if (pending) {
        this.items.delete(characterId);
        this.dirtySet.delete(characterId);
        void this.write([pending]);
      }
      const lane = this.lanes.get(characterId);
      if (!lane) return;
      await lane;
    }
  }

  runTransaction(tx: ItemTransaction): Promise<ItemTransactionResult> {
    return this.ordered(tx.changes, { txId: tx.id, kind: tx.kind }, () => this.port.applyItemTransaction(tx));
  }

  /**
   * PersistencePort.createDeathLock, ordered like runTransaction, but snapshots handed over while it runs
   * keep their holdings: the simulation applies a death at once and never waits for its lock, so they
   * already lack the dropped items, and may hold what the respawned player did since (a pickup, an item
   * dropped for another player to take), which the lock's `after` would undo.
   */
  createDeathLock(lock: DeathLock): Promise<ItemTransactionResult> {
    const change = { characterId: lock.characterId, before: lock.before, after: lock.after };
    return this.ordered([change], { deathLock: lock.id }, () => this.lockWithRetry(lock), false);
  }

  /**
   * Nothing undoes a death in the simulation: a lock lost to a database that did not answer (down, the
   * connection dropped) would leave the dropped items nowhere in it once the next snapshot is written. So
   * an `error` is retried with backoff, like a save, the character's later writes waiting behind it; a
   * refusal (stale, not conserved, a constraint) is final. A retry of a lock that did commit is a no-op
   * (createDeathLock is idempotent by lock id).
   */
  private async lockWithRetry(lock: DeathLock): Promise<ItemTransactionResult> {
    for (let attempt = 1; ; attempt++) {
      let res: ItemTransactionResult;
      try {
        res = await this.port.createDeathLock(lock);
      } catch (err) {
        res = { ok: false, reason: 'error', detail: describe(err) };
      }
      if (res.ok || res.reason !== 'error') return res;
      const pause = Math.min(this.retryBaseMs * 2 ** (attempt - 1), this.retryMaxMs);
      this.opts.logger.error(
        { deathLock: lock.id, characterId: lock.characterId, detail: res.detail, attempt, retryInMs: pause },
        'death lock failed; retrying',
      );
      await sleep(pause);
    }
  }

  /** PersistencePort.resolveDeathLock, ordered and snapshot-aware like runTransaction. */
  resolveDeathLock(id: string, claims?: HoldingsChange): Promise<ItemTransactionResult> {
    return this.ordered(claims ? [claims] : [], { deathLock: id }, () =>
      this.port.resolveDeathLock(id, claims),
    );
  }

  /**
   * Runs a holdings-changing call in its characters' lanes. Snapshots still waiting are written first
   * (they hold the holdings `before` expects). An item transaction (`patchTaken`) counts in txInFlight:
   * snapshots handed over while it runs are tracked and get `after` on success (the simulation shows the
   * outcome only once it comes back); a death lock counts in locksInFlight and tracks nothing.
   */
  private ordered(
    changes: readonly HoldingsChange[],
    what: object,
    call: () => Promise<ItemTransactionResult>,
    patchTaken = true,
  ): Promise<ItemTransactionResult> {
    const ids = changes.map((c) => c.characterId);
    const waiting = ids.flatMap((id) => {
      const s = this.items.get(id) ?? this.dirtySet.get(id);
      this.items.delete(id);
      this.dirtySet.delete(id);
      return s ? [s] : [];
    });
    if (waiting.length > 0) void this.write(waiting);
    const inFlight = patchTaken ? this.txInFlight : this.locksInFlight;
    for (const id of ids) inFlight.set(id, (inFlight.get(id) ?? 0) + 1);
    return this.enqueue(ids, async () => {
      let res: ItemTransactionResult;
      try {
        res = await call();
      } catch (err) {
        res = { ok: false, reason: 'error', detail: err instanceof Error ? err.message : String(err) };
      }
      for (const c of changes) {
        const taken = patchTaken ? this.takenDuringTx.get(c.characterId) : undefined;
        if (res.ok && taken) {
          for (const s of taken) {
            s.inventory = structuredClone(c.after.inventory);
            s.coins = c.after.coins;
            if (c.after.equipment) s.equipment = structuredClone(c.after.equipment);
          }
        }
        const left = (inFlight.get(c.characterId) ?? 1) - 1;
        if (left > 0) inFlight.set(c.characterId, left);
        else {
          inFlight.delete(c.characterId);
          if (patchTaken) this.takenDuringTx.delete(c.characterId);
        }
      }
      if (!res.ok)
        this.opts.logger.warn({ ...what, reason: res.reason, detail: res.detail }, 'item change refused');
      return res;
    });
  }

  async flushAll(): Promise<void> {
    const batch = [...this.items.values(), ...this.dirtySet.values()];
    this.items.clear();
    this.dirtySet.clear();
    if (batch.length > 0) await this.write(batch);
    while (this.lanes.size > 0) await Promise.all([...this.lanes.values()]);
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => this.flushDirty(), this.opts.saveIntervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.flushAll();
  }

  /** Number of snapshots waiting to be written (for metrics and tests). */
  get pendingCount(): number {
    return this.items.size + this.dirtySet.size;
  }

  private flushDirty(): void {
    if (this.dirtySet.size === 0) return;
    const batch = [...this.dirtySet.values()];
    this.dirtySet.clear();
    void this.write(batch);
  }

  private track(snap: CharacterState): CharacterState {
    if (this.txInFlight.has(snap.id)) {
      const set = this.takenDuringTx.get(snap.id) ?? new Set<CharacterState>();
      this.takenDuringTx.set(snap.id, set);
      set.add(snap);
    }
    return snap;
  }

  /** Runs `work` after earlier work on every one of `ids`; later work on them waits for it. */
  private enqueue<T>(ids: readonly string[], work: () => Promise<T>): Promise<T> {
    const unique = [...new Set(ids)];
    const before = unique.map((id) => this.lanes.get(id)).filter((p) => p !== undefined);
    const run = Promise.all(before).then(work);
    const tail = run.then(
      () => {},
      () => {},
    );
    const seq = ++this.seq;
    for (const id of unique) {
      this.lanes.set(id, tail);
      this.laneSeq.set(id, seq);
    }
    void tail.then(() => {
      for (const id of unique) {
        if (this.lanes.get(id) !== tail) continue;
        this.lanes.delete(id);
        this.laneSeq.delete(id);
      }
    });
    return run;
  }

  /** Writes a batch in the characters' lanes, retrying until written; never rejects. */
  private write(batch: CharacterState[]): Promise<void> {
    return this.enqueue(
      batch.map((s) => s.id),
      () => this.writeWithRetry(batch),
    );
  }

  private async writeWithRetry(batch: CharacterState[]): Promise<void> {
    let current = batch;
    for (let attempt = 1; current.length > 0; attempt++) {
      try {
        await this.port.saveCharacters(current);
        return;
      } catch (err) {
        if (isConstraintViolation(err)) {
          current = await this.saveOneByOne(current, err);
          if (current.length === 0) return;
        }
        const pause = Math.min(this.retryBaseMs * 2 ** (attempt - 1), this.retryMaxMs);
        this.opts.logger.error(
          { err: describe(err), characters: current.length, attempt, retryInMs: pause },
          'character save failed; retrying',
        );
        await sleep(pause);
        // Newer snapshots handed over meanwhile replace the ones that failed.
        current = current.map((s) => this.takeNewer(s));
      }
    }
  }

  /** After a batch hit a constraint: save each alone; drop (loudly) the ones the database refuses. */
  private async saveOneByOne(batch: CharacterState[], cause: unknown): Promise<CharacterState[]> {
    const failed: CharacterState[] = [];
    for (const s of batch) {
      try {
        await this.port.saveCharacters([s]);
      } catch (err) {
        if (isConstraintViolation(err)) {
          this.opts.logger.error(
            { err: describe(err), characterId: s.id, batchError: describe(cause) },
            'character snapshot refused by the database; dropped',
          );
        } else failed.push(s);
      }
    }
    return failed;
  }

  /**
   * The snapshot handed over since `s`, if it may be written in `s`'s place. Not while an item transaction
   * or death lock of the character is queued: a retrying write runs ahead of it in the lane, and every
   * snapshot waiting now was handed over after it (ordered() took the earlier ones). A snapshot taken
   * after a death, written ahead of its lock, leaves the database without the items the lock expects:
   * the lock is refused as stale and the dropped items are lost.
   */
  private takeNewer(s: CharacterState): CharacterState {
    if (this.txInFlight.has(s.id) || this.locksInFlight.has(s.id)) return s;
    const newer = this.items.get(s.id) ?? this.dirtySet.get(s.id);
    if (!newer) return s;
    this.items.delete(s.id);
    this.dirtySet.delete(s.id);
    return newer;
  }
}

function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
