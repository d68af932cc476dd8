import type { PersistencePort } from '../persistence/port.ts';
import type { SaveScheduler } from '../persistence/save-scheduler.ts';
import type { PersistenceSink } from './persistence-handoff.ts';

/**
 * The tick's persistence hand-off backed by the save scheduler: snapshots, logouts, item transactions
 * and death locks all go through the scheduler's per-character lanes, so each character's writes land
 * in the order the simulation made them.
 */
export function schedulerSink(
  persistence: { port: PersistencePort; saves: SaveScheduler },
  logger: { error(obj: object, msg?: string): void },
): PersistenceSink {
  const { port, saves } = persistence;
  return {
    itemsChanged: (s) => saves.itemsChanged(s),
    dirty: (s) => saves.dirty(s),
    logout: (s) => saves.logout(s),
    runTransaction: (tx) =>
      tx.deathLock
        ? saves.resolveDeathLock(tx.deathLock.id, tx.changes[0])
        : saves.runTransaction({
            id: tx.id,
            kind: tx.kind,
            changes: tx.changes,
            conserve: tx.conserve,
            ...(tx.audit ? { audit: tx.audit } : {}),
          }),
    deathLock: (l) => saves.createDeathLock(l),
    tradeAudit: (a) => {
      port
        .recordTradeAudit(a)
        .catch((err: unknown) => logger.error({ err, tradeId: a.tradeId }, 'trade audit failed'));
    },
    flushTick: () => saves.flushTick(),
  };
}
