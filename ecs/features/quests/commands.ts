/** This feature's commands, added to the simulation's command union (see core/commands.ts). */
declare module '../../core/commands.ts' {
  interface CommandFields {
    questStart: { questId: string };
    questList: Record<never, never>;
  }
}

export {};
