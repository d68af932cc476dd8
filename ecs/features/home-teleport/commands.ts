/** This feature's command, added to the simulation's command union (see core/commands.ts). */
declare module '../../core/commands.ts' {
  interface CommandFields {
    homeTeleport: Record<never, never>;
  }
}

export {};
