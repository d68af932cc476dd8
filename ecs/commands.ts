import type { CharacterState } from './character-state.ts';

/**
 * Commands: intents queued by adapters and applied by the tick, in arrival order. Never outcomes.
 * `origin` is the wire event that caused the command (opaque here), echoed in error events.
 */

export type PlayerAction = 'attack' | 'gather' | 'talk' | 'pickup' | 'trade' | 'bank' | 'shop';

interface Base {
  characterId: string;
  origin?: string;
}

export type Command =
  /** A loaded character enters the world (persistence already read it). */
  | (Base & { type: 'join'; accountId: string; state: CharacterState })
  | (Base & { type: 'leave'; reason: 'logout' | 'disconnect' | 'takeover' })
  | (Base & { type: 'move'; x: number; z: number; run: boolean })
  | (Base & { type: 'moveCancel' })
  | (Base & { type: 'chat'; message: string; to?: string | undefined })
  /** A chat line starting with `/` other than `/admin` (net checks the admin code itself). */
  | (Base & { type: 'chatCommand'; name: string; args: string[] })
  | (Base & { type: 'setAdmin' })
  | (Base & { type: 'action'; action: PlayerAction; targetId: string })
  | (Base & {
      type: 'inventoryUse';
      slot: number;
      targetSlot?: number | undefined;
      targetId?: string | undefined;
    })
  | (Base & { type: 'inventoryDrop'; slot: number; quantity?: number | undefined })
  | (Base & { type: 'inventoryMove'; from: number; to: number })
  | (Base & { type: 'unequip'; slot: string })
  | (Base & { type: 'bankDeposit'; slot: number; quantity?: number | undefined })
  | (Base & { type: 'bankWithdraw'; itemId: string; quantity?: number | undefined })
  | (Base & { type: 'tradeRequest'; targetPlayerId: string })
  | (Base & { type: 'tradeRespond'; tradeId: string; accept: boolean })
  | (Base & { type: 'tradeAddItem'; tradeId: string; inventorySlot: number; quantity?: number | undefined })
  | (Base & { type: 'tradeSetCoins'; tradeId: string; coins: number })
  | (Base & { type: 'tradeRemoveItem'; tradeId: string; tradeSlot: number })
  | (Base & { type: 'tradeAccept'; tradeId: string })
  | (Base & { type: 'tradeCancel'; tradeId: string })
  /** Damage from a source outside the simulated combat (tests, hazards); combat comes later. */
  | (Base & { type: 'damage'; amount: number; sourceId?: string | undefined })
  /** The outcome of an item transaction the simulation asked persistence for (characterId: the requester). */
  | (Base & { type: 'txResult'; txId: string; ok: boolean; reason?: string | undefined });

export type CommandType = Command['type'];
export type CommandOf<T extends CommandType> = Extract<Command, { type: T }>;

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
