/** What other features may use of the inventory and item transactions. */
export { inventory } from './feature.ts';
export {
  copyHoldings,
  holdingsOf,
  nextTxId,
  type PendingTx,
  pendingTransactions,
  submitTx,
  txInFlight,
} from './item-tx.ts';
export { itemsLocked } from './locks.ts';
export * from './slots.ts';
