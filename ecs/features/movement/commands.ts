/** This feature's commands, added to the simulation's command union (see core/commands.ts). */
declare module '../../core/commands.ts' {
  interface CommandFields {
    move: { x: number; z: number; run: boolean };
    moveCancel: Record<never, never>;
  }
}

export {};
