/** The chat feature's event (added to core/events.ts's SimEventData). */
declare module '../../core/events.ts' {
  interface SimEventData {
    /** `timestamp`: the tick's wall-clock time in ms (for display only, never for rules). */
    chat: {
      fromId: string;
      fromName: string;
      message: string;
      channel: 'local' | 'private' | 'system';
      timestamp: number;
    };
  }
}

export {};
