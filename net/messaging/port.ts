import type { SocialLists, SocialRequest } from '../../ecs/features/social/index.ts';

/**
 * The messaging port: how a world reaches characters it does not host, and hears who enters and leaves
 * the game. A world subscribes for each character it hosts; anyone may publish to a character; presence
 * changes go to every listener. Implementations: LocalMessaging (one process, net/messaging/local.ts);
 * a networked one (NATS) can replace it without the game noticing. Every implementation passes
 * tests/contract/messaging.contract.ts.
 *
 * Guarantees: delivery is asynchronous (never inside publish), at most once, in publish order per
 * character (and per publisher for presence, presence answers and announcements); a message to a character nobody subscribes for is dropped; handlers get their own copy
 * (messages are plain JSON data).
 */

/** What is published to one character. */
export type CharacterMessage =
  | {
      kind: 'socialUpdate';
      lists: SocialLists;
      /** A new request from the publisher, to show at once. */
      received?: SocialRequest;
    }
  | {
      kind: 'privateMessage';
      fromId: string;
      fromName: string;
      message: string;
      timestamp: number;
    };

export interface Presence {
  characterId: string;
  name: string;
  online: boolean;
  /** The world the character entered or left (WORLD_ID). */
  world: number;
}

/** An admin's message to every player of every world. */
export interface Announcement {
  fromName: string;
  message: string;
  timestamp: number;
}

export interface Subscription {
  unsubscribe(): void;
}

export interface MessagingPort {
  publish(characterId: string, message: CharacterMessage): void;
  /** Messages to this character from now on, until unsubscribed. */
  subscribe(characterId: string, handler: (message: CharacterMessage) => void): Subscription;
  presenceChanged(presence: Presence): void;
  /** Every presence change from now on (this process's own included). */
  onPresence(handler: (presence: Presence) => void): Subscription;
  /**
   * Answer other worlds' `requestPresence` with who is online here (`online: true` entries), so that a
   * world that starts (or comes back) late learns who is already in the game.
   */
  servePresence(online: () => Presence[]): Subscription;
  /** Ask every serving world (this one included) who is online: the answers reach the `onPresence` handlers. */
  requestPresence(): void;
  /** To every world, this one included. */
  announce(announcement: Announcement): void;
  onAnnouncement(handler: (announcement: Announcement) => void): Subscription;
  /** Resolves once everything published so far has been handed to the handlers (tests, shutdown). */
  flush(): Promise<void>;
  close(): Promise<void>;
}
