import type { z } from 'zod';
import type { CHAT_CHANNELS, chatMessage } from './wire.ts';

export type ChatChannel = (typeof CHAT_CHANNELS)[number];

/** The chat feature's event (added to core/events.ts's SimEventData), typed by its wire schema. */
declare module '../../core/events.ts' {
  interface SimEventData {
    chat: z.output<typeof chatMessage>;
  }
}
