/** This feature's commands, added to the simulation's command union (see core/commands.ts). */
declare module '../../core/commands.ts' {
  /** `player:action` verbs this feature answers. */
  interface PlayerActions {
    pray: true;
  }
  interface CommandFields {
    prayerToggle: { prayerId: string; active: boolean };
    prayerDeactivateAll: Record<never, never>;
  }
}

export {};
