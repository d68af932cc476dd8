import type { SocialLists, SocialOutcome, SocialRequest } from './lists.ts';

/** This feature's commands, added to the simulation's command union (see core/commands.ts). */
declare module '../../core/commands.ts' {
  interface CommandFields {
    friendRequest: { name: string };
    friendRespond: { requestId: string; accept: boolean };
    friendRemove: { name: string };
    ignoreAdd: { name: string };
    ignoreRemove: { name: string };
    /** The committed outcome of one of the actor's social actions (persistence, outside the tick). */
    socialResult: { outcome: SocialOutcome };
    /** Another character's action changed this character's lists (through the messaging port). */
    socialUpdate: { lists: SocialLists; received?: SocialRequest | undefined };
    /** `characterId` entered or left world `world` (this one or another), as the messaging port announces it. */
    socialPresence: { name: string; online: boolean; world: number };
    /** World `world` stopped answering (or stopped): the characters announced there are offline. */
    socialWorldDown: { world: number };
    /** An admin's announcement (from any world) for every player here. */
    announcement: { fromName: string; message: string; timestamp: number };
    /** A private message to this character from a player of another world (through the messaging port). */
    privateMessage: { fromId: string; fromName: string; message: string; timestamp: number };
  }
}
