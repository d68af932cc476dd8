/** This feature's commands, added to the simulation's command union (see core/commands.ts). */
declare module '../../core/commands.ts' {
  /** `player:action` verbs this feature answers. */
  interface PlayerActions {
    talk: true;
  }
  interface CommandFields {
    dialogueChoose: { optionId: string };
    dialogueClose: Record<never, never>;
  }
}

export {};
