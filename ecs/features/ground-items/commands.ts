/** This feature's commands, added to the simulation's command union (see core/commands.ts). */
declare module '../../core/commands.ts' {
  /** `player:action` verbs this feature answers. */
  interface PlayerActions {
    pickup: true;
  }
  interface CommandFields {
    inventoryDrop: { slot: number; quantity?: number | undefined };
  }
}

export {};
