/** This feature's commands, added to the simulation's command union (see core/commands.ts). */
declare module '../../core/commands.ts' {
  interface CommandFields {
    dialogueChoose: { optionId: string };
    dialogueClose: Record<never, never>;
  }
}

export {};
