/** This feature's commands, added to the simulation's command union (see core/commands.ts). */
declare module '../../core/commands.ts' {
  interface CommandFields {
    inventoryUse: { slot: number; targetSlot?: number | undefined; targetId?: string | undefined };
    inventoryMove: { from: number; to: number };
    /** The outcome of an item transaction the simulation asked persistence for (characterId: the requester). */
    txResult: { txId: string; ok: boolean; reason?: string | undefined };
  }
}

export {};
