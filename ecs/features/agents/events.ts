import type { z } from 'zod';
import type { agentGoal, agentGoalEvent, agentMessage } from './wire.ts';

/** An AI agent's goal, as the agent routes keep it and the agent's connection receives it. */
export type AgentGoal = z.output<typeof agentGoal>;

/** The agents' events (added to core/events.ts's SimEventData), typed by their wire schemas. */
declare module '../../core/events.ts' {
  interface SimEventData {
    agentGoal: z.output<typeof agentGoalEvent>;
    agentMessage: z.output<typeof agentMessage>;
  }
}
