/** This feature's commands, added to the simulation's command union (see core/commands.ts). */
declare module '../../core/commands.ts' {
  interface CommandFields {
    inventoryDrop: { slot: number; quantity?: number | undefined };
  }
}

export {};
