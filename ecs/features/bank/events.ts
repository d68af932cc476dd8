import type { ItemStack } from '../../core/character-state.ts';

/** The bank feature's event (added to core/events.ts's SimEventData). */
declare module '../../core/events.ts' {
  interface SimEventData {
    bankUpdate: { items: ItemStack[] };
  }
}
