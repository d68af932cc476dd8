/** Where a chat line was said. */
export const CHAT_CHANNELS = ['local', 'private', 'system'] as const;
export type ChatChannel = (typeof CHAT_CHANNELS)[number];

/** The chat feature's event (added to core/events.ts's SimEventData). */
declare module '../../core/events.ts' {
  interface SimEventData {
    /** `timestamp`: the tick's wall-clock time in ms (for display only, never for rules). */
    chat: {
      fromId: string;
      fromName: string;
      message: string;
      channel: ChatChannel;
      timestamp: number;
    };
  }
}
