import type { z } from 'zod';
import type { SocialLists } from './lists.ts';
import type { friendPresence, friendRequest, socialList } from './wire.ts';

/** The social feature's events (added to core/events.ts's SimEventData), typed by their wire schemas. */
declare module '../../core/events.ts' {
  interface SimEventData {
    friendRequestReceived: z.output<typeof friendRequest>;
    socialList: z.output<typeof socialList>;
    friendPresence: z.output<typeof friendPresence>;
  }
}

declare module '../../core/character-state.ts' {
  interface CharacterSlices {
    /** Friends, ignore list and requests, loaded with the character (written by social actions only). */
    social: SocialLists;
  }
}
