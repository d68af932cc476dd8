/** This feature's commands, added to the simulation's command union (see core/commands.ts). */
declare module '../../core/commands.ts' {
  interface CommandFields {
    /** A chat line starting with `/` other than `/admin` (net checks the admin code itself). */
    chatCommand: { name: string; args: string[] };
    /** The session passed `/admin <code>`. */
    setAdmin: Record<never, never>;
  }
}

export {};
