import type { Command } from '../../ecs/commands.ts';
import { type GameWorld, snapshotCharacter } from '../../ecs/world.ts';
import type { PersistencePort } from '../../persistence/port.ts';
import type { SaveScheduler } from '../../persistence/save-scheduler.ts';

/**
 * What the tick loop (src/) does with a tick's outbox, for the bench and the crash test until the real
 * loop is merged: in the order the simulation relies on (docs/items-and-trading.md) — death locks, then
 * snapshots, then item transactions, whose results come back as txResult commands via `enqueue`.
 */
export function handOff(
  world: GameWorld,
  saves: SaveScheduler,
  port: PersistencePort,
  enqueue: (cmd: Command) => void,
): void {
  const out = world.persist;
  for (const lock of out.deathLocks) {
    void saves.createDeathLock(lock).then((r) => {
      // The simulation already moved the items to the ground: a refused lock is a bug to shout about.
      if (!r.ok) console.error(`death lock ${lock.id} refused: ${r.reason} ${r.detail}`);
    });
  }
  for (const id of out.itemsChanged) {
    const p = world.players.get(id);
    if (p) saves.itemsChanged(snapshotCharacter(world, p));
  }
  for (const id of out.dirty) {
    const p = world.players.get(id);
    if (p) saves.dirty(snapshotCharacter(world, p));
  }
  for (const snap of out.left) void saves.logout(snap);
  saves.flushTick();
  for (const tx of out.transactions) {
    const run = tx.deathLock
      ? saves.resolveDeathLock(tx.deathLock.id, tx.changes[0])
      : saves.runTransaction({
          id: tx.id,
          kind: tx.kind,
          changes: tx.changes,
          conserve: tx.conserve,
          ...(tx.audit ? { audit: tx.audit } : {}),
        });
    void run.then((r) => {
      if (!r.ok && process.env['HANDOFF_DEBUG'])
        console.error(`tx ${tx.id} ${tx.kind} refused: ${r.reason} ${r.detail}`);
      enqueue({
        type: 'txResult',
        characterId: tx.requesterId,
        txId: tx.id,
        ok: r.ok,
        reason: r.ok ? undefined : r.reason,
      });
    });
  }
  for (const row of out.tradeAudits) void port.recordTradeAudit(row);
}
