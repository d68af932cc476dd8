/** This feature's `player:action` verb, added to the simulation's verbs (see core/commands.ts). */
declare module '../../core/commands.ts' {
  interface PlayerActions {
    gather: true;
  }
}

export {};
