import type { z } from 'zod';
import type { dialogueClose, dialogueNode } from './wire.ts';

/** The dialogue's events (added to core/events.ts's SimEventData), typed by their wire schemas. */
declare module '../../core/events.ts' {
  interface SimEventData {
    dialogueNode: z.output<typeof dialogueNode>;
    dialogueClose: z.output<typeof dialogueClose>;
  }
}
