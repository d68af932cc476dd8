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

/** The least per-tick cap of one player's commands (the cap follows the tick length above it). */
export const COMMANDS_PER_PLAYER_PER_TICK = 16;

/** Bounds of one player's commands in the queue (net/session/inbound.ts derives them from the tick). */
export interface QueueLimits {
  /** Commands of one player applied in one tick at most; the rest wait for the next tick, in order. */
  perTick: number;
  /** Commands of one player queued at most (this tick's and those waiting); offer() refuses beyond. */
  backlog: number;
}

/**
 * FIFO of commands. drain() takes everything queued, in arrival order, except that a player's commands
 * beyond the per-tick cap stay queued (still in order) for the next tick. Commands come in two ways:
 * push() for the server's own (join, leave, transaction results, social deliveries, agent control),
 * never capped or refused; offer() for what a player sent, capped per tick and bounded per player.
 *
 * Cheap on the tick's path: commands within their player's cap go straight to `ready`, which drain()
 * hands over whole (no copy); only the commands over a cap (`held`, at most backlog - perTick per
 * player) are looked at again, to move those whose turn came into the next `ready`.
 */
export class CommandQueue {
  /** What the next drain() takes, in arrival order. */
  private ready: Command[] = [];
  /** Players' commands beyond their cap for the next drain(), in arrival order. */
  private held: Command[] = [];
  /** Per character that offered: its commands in `ready` (when `drain` is the current one) and `held`. */
  private readonly counts = new Map<string, { drain: number; ready: number; held: number }>();
  /** Drains so far: a count stamped with an older one has nothing in `ready` any more. */
  private drains = 0;
  readonly limits: QueueLimits;

  constructor(limits: Partial<QueueLimits> = {}) {
    const perTick = limits.perTick ?? COMMANDS_PER_PLAYER_PER_TICK;
    this.limits = { perTick, backlog: Math.max(perTick, limits.backlog ?? 2 * perTick) };
  }

  /** A command of the server's own: applied in the next tick, never capped. */
  push(command: Command): void {
    this.ready.push(command);
  }

  /**
   * A command a player sent: queued behind the player's earlier ones and applied within its per-tick
   * cap; false (nothing queued) when the player already has `backlog` commands waiting.
   */
  offer(command: Command): boolean {
    const n = this.countOf(command.characterId);
    if (n.ready + n.held >= this.limits.backlog) return false;
    if (n.held === 0 && n.ready < this.limits.perTick) {
      this.ready.push(command);
      n.ready++;
    } else {
      this.held.push(command);
      n.held++;
    }
    return true;
  }

  /** Commands a player sent that are waiting (this tick's included). */
  pending(characterId: string): number {
    const n = this.counts.get(characterId);
    if (n === undefined) return 0;
    return (n.drain === this.drains ? n.ready : 0) + n.held;
  }

  get length(): number {
    return this.ready.length + this.held.length;
  }

  /** This tick's commands, in arrival order; the queue keeps only what waits for later ticks. */
  drain(): Command[] {
    const taken = this.ready;
    this.ready = [];
    this.drains++;
    if (this.held.length > 0) this.promote();
    // Now and then, forget players with nothing queued (gone, or idle): the map stays the size of
    // those who sent something lately.
    if (this.drains % 128 === 0) {
      for (const [id, n] of this.counts) if (n.drain !== this.drains && n.held === 0) this.counts.delete(id);
    }
    return taken;
  }

  private countOf(characterId: string): { drain: number; ready: number; held: number } {
    let n = this.counts.get(characterId);
    if (n === undefined) {
      n = { drain: this.drains, ready: 0, held: 0 };
      this.counts.set(characterId, n);
    } else if (n.drain !== this.drains) {
      n.drain = this.drains;
      n.ready = 0;
    }
    return n;
  }

  /** Moves held commands whose turn came (within their player's cap) to `ready`, keeping the order. */
  private promote(): void {
    const { perTick } = this.limits;
    const still: Command[] = [];
    for (let i = 0; i < this.held.length; i++) {
      const cmd = this.held[i] as Command;
      const n = this.countOf(cmd.characterId);
      if (n.ready < perTick) {
        this.ready.push(cmd);
        n.ready++;
        n.held--;
      } else {
        still.push(cmd);
      }
    }
    this.held = still;
  }
}
