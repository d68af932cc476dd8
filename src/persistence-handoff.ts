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
  for (const id of out.itemsChanged) {
    const p = world.players.get(id);
    if (p) sink.itemsChanged(liveState(world, p));
  }
  for (const id of out.dirty) {
    if (out.itemsChanged.has(id)) continue;
    const p = world.players.get(id);
    if (p) sink.dirty(liveState(world, p));
  }
  for (const s of out.left) {
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
