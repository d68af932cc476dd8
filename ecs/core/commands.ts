import type { CharacterState } from './character-state.ts';

/**
 * Commands: intents queued by adapters and applied by the tick, in arrival order. Never outcomes.
 * `origin` is the wire event that caused the command (opaque here), echoed in error events.
 */

/**
 * The verbs of `player:action`. Each feature declares its own in its `commands.ts` by augmenting this
 * interface (`interface PlayerActions { cross: true }`) and answers it in its `actions`; the schedule
 * checks at compile time that every declared verb is answered.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by the features' declaration merging
export interface PlayerActions {}
export type PlayerAction = keyof PlayerActions & string;

/**
 * Each command's fields beyond type/characterId/origin, by command type. Core declares the commands of
 * entering and leaving the world; every feature adds its own in its `commands.ts` by augmenting this
 * interface (`declare module '../../core/commands.ts'`), so the union below grows without a hub file.
 */
export interface CommandFields {
  /** A loaded character enters the world (persistence already read it). */
  join: { accountId: string; state: CharacterState };
  leave: { reason: 'logout' | 'disconnect' | 'takeover' };
  /** `player:action`: dispatched to the feature that registered the verb. */
  action: { action: PlayerAction; targetId: string };
}

interface Base {
  characterId: string;
  origin?: string;
}

export type CommandType = keyof CommandFields;
export type CommandOf<T extends CommandType> = Base & { type: T } & CommandFields[T];
export type Command = { [T in CommandType]: CommandOf<T> }[CommandType];

/** Commands of one player applied in one tick at most; the rest wait for the next tick, in order. */
export const COMMANDS_PER_PLAYER_PER_TICK = 16;

/**
 * FIFO of commands. drain() takes everything queued, in arrival order, except that a player's commands
 * beyond the per-tick cap stay queued (still in order) for the next tick. System commands (txResult)
 * are never capped.
 */
export class CommandQueue {
  private queue: Command[] = [];

  push(command: Command): void {
    this.queue.push(command);
  }

  get length(): number {
    return this.queue.length;
  }

  drain(cap = COMMANDS_PER_PLAYER_PER_TICK): Command[] {
    if (this.queue.length === 0) return [];
    const taken: Command[] = [];
    const kept: Command[] = [];
    const counts = new Map<string, number>();
    for (const cmd of this.queue) {
      if (cmd.type === 'txResult' || cmd.type === 'join' || cmd.type === 'leave') {
        taken.push(cmd);
        continue;
      }
      const n = counts.get(cmd.characterId) ?? 0;
      if (n < cap) {
        counts.set(cmd.characterId, n + 1);
        taken.push(cmd);
      } else {
        kept.push(cmd);
      }
    }
    this.queue = kept;
    return taken;
  }
}
