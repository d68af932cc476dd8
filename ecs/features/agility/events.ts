import type { z } from 'zod';
import type { agilityEnd, agilityStart } from './wire.ts';

/** Agility's events (added to core/events.ts's SimEventData), typed by their wire schemas. */
declare module '../../core/events.ts' {
  interface SimEventData {
    agilityStart: z.output<typeof agilityStart>;
    agilityEnd: z.output<typeof agilityEnd>;
  }
}
