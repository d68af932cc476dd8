/** This feature's commands, added to the simulation's command union (see core/commands.ts). */
declare module '../../core/commands.ts' {
  /** `player:action` verbs this feature answers. */
  interface PlayerActions {
    shop: true;
  }
  interface CommandFields {
    shopBuy: { shopId: string; itemId: string; quantity: number };
    shopSell: { shopId: string; slot: number; quantity?: number | undefined };
    shopClose: { shopId: string };
  }
}

export {};
