/** This feature's commands, added to the simulation's command union (see core/commands.ts). */
declare module '../../core/commands.ts' {
  interface CommandFields {
    /** Damage from a source outside the simulated combat (tests, hazards). */
    damage: { amount: number; sourceId?: string | undefined };
  }
}

export {};
