/** `skill:make`, added to the simulation's command union (see core/commands.ts). */
declare module '../../core/commands.ts' {
  /** `player:action` verbs this feature answers. */
  interface PlayerActions {
    use: true;
  }
  interface CommandFields {
    skillMake: { recipeId: string; quantity?: number | undefined; targetId?: string | undefined };
  }
}

export {};
