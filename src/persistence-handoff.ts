import type { CharacterState } from '../ecs/core/character-state.ts';
import type { CommandQueue } from '../ecs/core/commands.ts';
import type { DeathLockRequest, ItemTxRequest } from '../ecs/core/persist-intents.ts';
import type { GameWorld, PlayerData } from '../ecs/core/world.ts';

/**
 * After each tick the loop hands world.persist to persistence (the SaveScheduler implements this).
 * Results of item transactions and death locks come back as `txResult` commands on the queue, applied
 * in a later tick: the simulation never awaits.
 */
export interface PersistenceSink {
  /** Items or coins changed: commit within the tick (flushTick). The sink copies what it keeps. */
  itemsChanged(s: CharacterState): void;
  /** Position, xp or health changed: saved at the next interval. The sink copies what it keeps. */
  dirty(s: CharacterState): void;
  logout(s: CharacterState): Promise<void>;
  /** Runs the transaction; one carrying `deathLock` resolves that lock (pickup or despawn of death items). */
  runTransaction(tx: ItemTxRequest): Promise<{ ok: boolean; reason?: string }>;
  /** Written after any snapshot of the same character handed over before it (settleFirst relies on it). */
  deathLock(l: DeathLockRequest): Promise<{ ok: boolean }>;
  tradeAudit(a: NonNullable<ItemTxRequest['audit']>): void;
  /** After this tick's snapshots: write the tick's item batch (before its transactions). */
  flushTick(): void;
}

/**
 * Spaces a character's dirty hand-overs: each one copies the whole character (inventory, bank, skills,
 * slices) and a walking player is dirty every tick, so with thousands walking the copies were most of
 * the persistence phase. A dirty character not handed over in its last `everyTicks` ticks is handed over
 * at once; otherwise once that many ticks have passed since the last, with its state then. An interval
 * save so holds the state of at most `everyTicks - 1` ticks before it; a logout, a death and an item
 * change are never delayed.
 */
export class DirtyPacer {
  private readonly lastHanded = new Map<string, number>();
  private readonly waiting = new Set<string>();
  private readonly due = new Map<number, string[]>();

  constructor(readonly everyTicks: number) {}

  /** At most 5 ticks, and a twentieth of the save interval (a 1 s interval in tests: every tick). */
  static forInterval(saveIntervalMs: number, tickMs: number): DirtyPacer {
    return new DirtyPacer(Math.max(1, Math.min(5, Math.floor(saveIntervalMs / (20 * tickMs)))));
  }

  /** Whether a dirty character is handed over now; if not, it is scheduled and dueNow gives it later. */
  mayHand(id: string, tick: number): boolean {
    if (this.waiting.has(id)) return false;
    const last = this.lastHanded.get(id);
    if (last === undefined || tick - last >= this.everyTicks) {
      this.lastHanded.set(id, tick);
      return true;
    }
    this.waiting.add(id);
    const at = last + this.everyTicks;
    const list = this.due.get(at);
    if (list === undefined) this.due.set(at, [id]);
    else list.push(id);
    return false;
  }

  /** Handed over whole this tick anyway (an item change). */
  handed(id: string, tick: number): void {
    this.waiting.delete(id);
    this.lastHanded.set(id, tick);
  }

  /** The characters whose wait ends this tick (and any earlier tick not run). */
  dueNow(tick: number): string[] {
    const out: string[] = [];
    for (const [at, list] of this.due) {
      if (at > tick) continue;
      this.due.delete(at);
      for (const id of list) if (this.waiting.delete(id)) out.push(id);
    }
    for (const id of out) this.lastHanded.set(id, tick);
    return out;
  }

  /** The character left (its leaving snapshot is saved as it is). */
  forget(id: string): void {
    this.waiting.delete(id);
    this.lastHanded.delete(id);
  }

  /** Characters waiting for their turn (tests, metrics). */
  get waitingCount(): number {
    return this.waiting.size;
  }
}

export interface HandoffLogger {
  error(obj: object, msg?: string): void;
}

/** The character's state with position and health from components; shared, not copied (see above). */
function liveState(world: GameWorld, p: PlayerData): CharacterState {
  const { c } = world;
  return {
    ...p.state,
    position: {
      x: c.Position.x[p.eid] as number,
      y: c.Position.y[p.eid] as number,
      z: c.Position.z[p.eid] as number,
    },
    health: c.Health.current[p.eid] as number,
  };
}

/** A state with other holdings (inventory, coins, equipment; a save never writes the bank). */
function withHoldings(s: CharacterState, h: DeathLockRequest['before']): CharacterState {
  return { ...s, inventory: h.inventory, coins: h.coins, equipment: h.equipment ?? s.equipment };
}

/** A logout save started by the hand-off. */
export interface LogoutSave {
  characterId: string;
  done: Promise<void>;
}

/** Returns the logout saves started (session leave and shutdown wait for them). */
export function handOff(
  world: GameWorld,
  sink: PersistenceSink,
  queue: Pick<CommandQueue, 'push'>,
  log: HandoffLogger,
  pacer?: DirtyPacer,
): LogoutSave[] {
  const out = world.persist;
  const saves: LogoutSave[] = [];
  // Order matters (docs/items-and-trading.md): a death's lock is written before anything else of the
  // tick, then this tick's snapshots, and only then its transactions, which the scheduler orders after
  // any snapshot still waiting for the same character.
  for (const lock of out.deathLocks) {
    if (lock.settleFirst) {
      // Items changed earlier in the death's tick: saved first as the lock's `before` (the scheduler
      // writes a waiting snapshot before the lock), so the lock finds in the database what it expects.
      const p = world.players.get(lock.characterId);
      if (p) sink.itemsChanged(withHoldings(liveState(world, p), lock.before));
    }
    sink.deathLock(lock).then(
      (r) => {
        // The simulation already moved the items to the ground: a refused lock must be loud.
        if (!r.ok) log.error({ deathLockId: lock.id, characterId: lock.characterId }, 'death lock refused');
      },
      (err: unknown) => log.error({ err, deathLockId: lock.id }, 'death lock failed'),
    );
  }
  const tick = world.tick;
  for (const id of out.itemsChanged) {
    const p = world.players.get(id);
    if (p) sink.itemsChanged(liveState(world, p));
    pacer?.handed(id, tick);
  }
  for (const id of out.dirty) {
    if (out.itemsChanged.has(id)) continue;
    if (pacer !== undefined && !pacer.mayHand(id, tick)) continue;
    const p = world.players.get(id);
    if (p) sink.dirty(liveState(world, p));
  }
  if (pacer !== undefined) {
    for (const id of pacer.dueNow(tick)) {
      const p = world.players.get(id);
      if (p) sink.dirty(liveState(world, p));
    }
  }
  for (const s of out.left) {
    pacer?.forget(s.id);
    const done = sink
      .logout(s)
      .catch((err: unknown) => log.error({ err, characterId: s.id }, 'saving on logout failed'));
    saves.push({ characterId: s.id, done });
  }
  sink.flushTick();
  for (const tx of out.transactions) {
    const reply = (ok: boolean, reason?: string) =>
      queue.push({ type: 'txResult', characterId: tx.requesterId, txId: tx.id, ok, reason });
    sink.runTransaction(tx).then(
      (r) => reply(r.ok, r.reason),
      (err: unknown) => {
        log.error({ err, txId: tx.id }, 'item transaction failed');
        reply(false, 'error');
      },
    );
  }
  for (const audit of out.tradeAudits) sink.tradeAudit(audit);
  return saves;
}
