import type { z } from 'zod';
import type { bankUpdate } from './wire.ts';

/** The bank feature's event (added to core/events.ts's SimEventData), typed by its wire schema. */
declare module '../../core/events.ts' {
  interface SimEventData {
    bankUpdate: z.output<typeof bankUpdate>;
  }
}
