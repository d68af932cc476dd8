/** The dialogue's events (added to core/events.ts's SimEventData). */
declare module '../../core/events.ts' {
  interface SimEventData {
    dialogueNode: {
      npcId: string;
      entityId: string;
      nodeId: string;
      text: string;
      options: { id: string; text: string }[];
    };
    dialogueClose: Record<string, never>;
  }
}

export {};
