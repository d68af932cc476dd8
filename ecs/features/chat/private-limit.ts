import { defineState } from '../../core/feature.ts';
import type { Hasher } from '../../core/hasher.ts';
import type { GameWorld, PlayerData } from '../../core/world.ts';

/**
 * How fast one player may send private messages: PRIVATE_MESSAGES_PER_SECOND on average, up to
 * PRIVATE_MESSAGE_BURST at once. A game rule (not transport protection): it is what stops one player
 * from burying another's chat box in whispers, which the transport's 60 messages a second allow. Game
 * time is the tick counter, so the rule is the same at any tick length and replays identically.
 *
 * Generic cell rate: each sender has the game time (ms) its allowance is paid up to; a message moves it
 * one interval on, and is refused when that would put it more than the burst ahead of now.
 */
export const PRIVATE_MESSAGES_PER_SECOND = 2;
export const PRIVATE_MESSAGE_BURST = 5;
const INTERVAL_MS = 1000 / PRIVATE_MESSAGES_PER_SECOND;

export interface ChatState {
  /** Sender's character id -> game time (ms) up to which its private messages are paid. */
  readonly privatePaidUntil: Map<string, number>;
}

export const CHAT = defineState<ChatState>('chat', () => ({ privatePaidUntil: new Map() }));

/** Counts one private message of `senderId`: false (nothing counted) when it is over the limit. */
export function takePrivateAllowance(world: GameWorld, senderId: string): boolean {
  const now = world.tick * world.tickMs;
  const paid = world.get(CHAT).privatePaidUntil;
  const from = Math.max(paid.get(senderId) ?? now, now);
  if (from - now > (PRIVATE_MESSAGE_BURST - 1) * INTERVAL_MS) return false;
  paid.set(senderId, from + INTERVAL_MS);
  return true;
}

export function forgetSender(world: GameWorld, player: PlayerData): void {
  world.get(CHAT).privatePaidUntil.delete(player.characterId);
}

export function hashChat(world: GameWorld, h: Hasher): void {
  for (const [id, until] of world.get(CHAT).privatePaidUntil) {
    h.str(id);
    h.num(until);
  }
}
