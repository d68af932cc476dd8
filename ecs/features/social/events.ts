import type { SocialLists } from './lists.ts';

/** The social feature's events (added to core/events.ts's SimEventData). */
declare module '../../core/events.ts' {
  interface SimEventData {
    friendRequestReceived: { requestId: string; fromId: string; fromName: string };
    socialList: {
      friends: { id: string; name: string; online: boolean; world?: number }[];
      ignored: { id: string; name: string }[];
      requests: { requestId: string; fromId: string; fromName: string }[];
    };
    friendPresence: { id: string; name: string; online: boolean; world?: number };
  }
}

declare module '../../core/character-state.ts' {
  interface CharacterSlices {
    /** Friends, ignore list and requests, loaded with the character (written by social actions only). */
    social: SocialLists;
  }
}
