import type { ItemTxRequest } from '../ecs/core/persist-intents.ts';
import type { PersistencePort } from '../persistence/port.ts';
import type { SaveScheduler } from '../persistence/save-scheduler.ts';
import type { PersistenceSink } from './persistence-handoff.ts';

/**
 * The tick's persistence hand-off backed by the save scheduler: snapshots, logouts, item transactions
 * and death locks all go through the scheduler's per-character lanes, so each character's writes land
 * in the order the simulation made them.
 *
 * It is also where the outcomes of item transactions are logged (the simulation does no I/O): a trade
 * completed (or failed) at info once its transaction committed (or rolled back), bank and shop
 * transactions at debug.
 */

export interface SinkLogger {
  error(obj: object, msg?: string): void;
  info?(obj: object, msg?: string): void;
  debug?(obj: object, msg?: string): void;
}

/** Stacks and coins one side offered (the audit's offer shape: `{items: [...], coins}`). */
function offerSize(offer: unknown): { items: number; coins: number } {
  const o = offer as { items?: unknown; coins?: unknown } | null;
  return {
    items: Array.isArray(o?.items) ? o.items.length : 0,
    coins: typeof o?.coins === 'number' ? o.coins : 0,
  };
}

function logOutcome(logger: SinkLogger, tx: ItemTxRequest, r: { ok: boolean; reason?: string }): void {
  if (tx.kind === 'trade') {
    const a = tx.audit;
    const initiator = offerSize(a?.initiatorOffer);
    const recipient = offerSize(a?.recipientOffer);
    const line = {
      tradeId: a?.tradeId,
      txId: tx.id,
      initiatorId: a?.initiatorId,
      recipientId: a?.recipientId,
      itemCount: initiator.items + recipient.items,
      coins: initiator.coins + recipient.coins,
    };
    if (r.ok) logger.info?.(line, 'trade completed');
    else logger.info?.({ ...line, reason: r.reason }, 'trade failed');
    return;
  }
  if (tx.kind.startsWith('bank_') || tx.kind.startsWith('shop_')) {
    logger.debug?.(
      { kind: tx.kind, txId: tx.id, characterId: tx.requesterId, ok: r.ok, reason: r.reason },
      'item transaction',
    );
  }
}

export function schedulerSink(
  persistence: { port: PersistencePort; saves: SaveScheduler },
  logger: SinkLogger,
): PersistenceSink {
  const { port, saves } = persistence;
  return {
    itemsChanged: (s) => saves.itemsChanged(s),
    dirty: (s) => saves.dirty(s),
    logout: (s) => saves.logout(s),
    runTransaction: (tx) => {
      const run = tx.deathLock
        ? saves.resolveDeathLock(tx.deathLock.id, tx.changes[0])
        : saves.runTransaction({
            id: tx.id,
            kind: tx.kind,
            changes: tx.changes,
            conserve: tx.conserve,
            ...(tx.audit ? { audit: tx.audit } : {}),
          });
      return run.then((r) => {
        logOutcome(logger, tx, r);
        return r;
      });
    },
    deathLock: (l) => saves.createDeathLock(l),
    tradeAudit: (a) => {
      port
        .recordTradeAudit(a)
        .catch((err: unknown) => logger.error({ err, tradeId: a.tradeId }, 'trade audit failed'));
    },
    flushTick: () => saves.flushTick(),
  };
}

/**
 * A sink whose target is set later: the world is built while the database still opens, and nothing
 * reaches the sink before the first tick, which runs once the target is set.
 */
export function lateSink(target: () => PersistenceSink): PersistenceSink {
  return {
    itemsChanged: (s) => target().itemsChanged(s),
    dirty: (s) => target().dirty(s),
    logout: (s) => target().logout(s),
    runTransaction: (tx) => target().runTransaction(tx),
    deathLock: (l) => target().deathLock(l),
    tradeAudit: (a) => target().tradeAudit(a),
    flushTick: () => target().flushTick(),
  };
}
