import { defineState } from '../../core/feature.ts';
import type { SocialAction, SocialRequest } from './lists.ts';

/** Ticks a character taken over by a new connection counts as still online while it comes back. */
export const TAKEOVER_GRACE_TICKS = 100;

/** Friend and ignore actions of one player waiting for persistence at once; more: BUSY. */
export const MAX_PENDING_ACTIONS = 4;

/** A player's lists while it is in this world (maps for the per-message ignore check). */
export interface CachedLists {
  friends: Map<string, string>;
  ignored: Map<string, string>;
  requests: Map<string, SocialRequest>;
  outgoing: Map<string, string>;
}

/**
 * What the simulation asks of the outside after a tick (taken by net/social's bridge): run an action in
 * persistence, announce a presence change, start or stop hosting a character's messages.
 */
export type SocialOp =
  | { op: 'act'; origin: string | undefined; action: SocialAction }
  | { op: 'presence'; id: string; name: string; online: boolean }
  /** An admin's message to every player of every world. */
  | { op: 'announce'; fromId: string; fromName: string; message: string; timestamp: number }
  | { op: 'host'; id: string; hosted: boolean }
  | {
      op: 'privateMessage';
      toId: string;
      fromId: string;
      fromName: string;
      message: string;
      timestamp: number;
    };

export interface SocialState {
  /** Lists of the players in this world, by character id. */
  readonly lists: Map<string, CachedLists>;
  /** Friend id -> players in this world who have it as a friend (presence fan-out). */
  readonly watchers: Map<string, Set<string>>;
  /** Characters announced online (anywhere), with their names and the world each is in. */
  readonly online: Map<string, { name: string; world: number }>;
  /** Lower-cased name -> id of the characters announced online. */
  readonly onlineByName: Map<string, string>;
  /** Characters that left through a takeover -> the tick their presence ends unless they come back. */
  readonly takeovers: Map<string, number>;
  /** Actions handed out and not answered yet, per player. */
  readonly pending: Map<string, number>;
  /** This tick's requests to the outside (reset on the first push of a tick). */
  ops: SocialOp[];
  opsTick: number;
}

export const SOCIAL = defineState<SocialState>('social', () => ({
  lists: new Map(),
  watchers: new Map(),
  online: new Map(),
  onlineByName: new Map(),
  takeovers: new Map(),
  pending: new Map(),
  ops: [],
  opsTick: -1,
}));
