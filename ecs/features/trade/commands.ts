/** This feature's commands, added to the simulation's command union (see core/commands.ts). */
declare module '../../core/commands.ts' {
  /** `player:action` verbs this feature answers. */
  interface PlayerActions {
    trade: true;
  }
  interface CommandFields {
    tradeRequest: { targetPlayerId: string };
    tradeRespond: { tradeId: string; accept: boolean };
    tradeAddItem: { tradeId: string; inventorySlot: number; quantity?: number | undefined };
    tradeSetCoins: { tradeId: string; coins: number };
    tradeRemoveItem: { tradeId: string; tradeSlot: number };
    tradeAccept: { tradeId: string };
    tradeCancel: { tradeId: string };
  }
}

export {};
