/** Agility's verb, added to the simulation's `player:action` verbs (see core/commands.ts). */
declare module '../../core/commands.ts' {
  /** `player:action` verbs this feature answers. */
  interface PlayerActions {
    cross: true;
  }
}

export {};
