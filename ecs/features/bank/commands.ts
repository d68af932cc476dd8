/** This feature's commands, added to the simulation's command union (see core/commands.ts). */
declare module '../../core/commands.ts' {
  /** `player:action` verbs this feature answers. */
  interface PlayerActions {
    bank: true;
  }
  interface CommandFields {
    bankDeposit: { slot: number; quantity?: number | undefined };
    bankWithdraw: { itemId: string; quantity?: number | undefined };
  }
}

export {};
