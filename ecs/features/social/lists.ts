/**
 * The social lists as persistence stores them and the simulation caches them for players in the world.
 * Structurally shared with persistence (the slice `social` and the port's social actions), which may
 * import these types but not the other way round.
 */

export const MAX_FRIENDS = 200;
export const MAX_IGNORED = 100;

export interface SocialEntry {
  id: string;
  name: string;
}

export interface SocialRequest {
  requestId: string;
  fromId: string;
  fromName: string;
}

export interface SocialLists {
  friends: SocialEntry[];
  /** The ignore list of the character's account. */
  ignored: SocialEntry[];
  /** Requests waiting for this character's answer. */
  requests: SocialRequest[];
  /** Requests this character sent that are still waiting (for duplicate checks, not sent to clients). */
  outgoing: SocialEntry[];
}

export function emptyLists(): SocialLists {
  return { friends: [], ignored: [], requests: [], outgoing: [] };
}

/** What a player asked for, run by persistence in one transaction (outside the tick). */
export type SocialAction =
  | { kind: 'request'; actorId: string; name: string }
  | { kind: 'respond'; actorId: string; requestId: string; accept: boolean }
  | { kind: 'remove'; actorId: string; name: string }
  | { kind: 'ignoreAdd'; actorId: string; name: string }
  | { kind: 'ignoreRemove'; actorId: string; name: string };

export type SocialErrorCode = 'NOT_FOUND' | 'BUSY' | 'INVALID_TARGET' | 'REQUIREMENT_NOT_MET';

/**
 * The committed outcome: `requested` (a pending request now exists), `befriended` (a friendship now
 * exists: an accept, or two requests crossing), `declined`, `removed`, `ignored`, `unignored`. `lists`
 * holds the fresh lists of the actor and of every other character whose lists changed (the other player
 * of a friend action; the account's other characters for an ignore-list change).
 */
export type SocialOutcome =
  | {
      ok: true;
      result: 'requested' | 'befriended' | 'declined' | 'removed' | 'ignored' | 'unignored';
      otherId: string;
      lists: Record<string, SocialLists>;
    }
  | { ok: false; code: SocialErrorCode; message: string };

/** A request's wire id: who asked whom (one pending request per ordered pair). */
export function requestIdOf(fromId: string, toId: string): string {
  return `${fromId}>${toId}`;
}

export function parseRequestId(requestId: string): { fromId: string; toId: string } | null {
  const i = requestId.indexOf('>');
  if (i <= 0 || i === requestId.length - 1) return null;
  return { fromId: requestId.slice(0, i), toId: requestId.slice(i + 1) };
}
