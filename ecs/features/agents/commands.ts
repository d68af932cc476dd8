import type { AgentGoal } from './events.ts';

/**
 * This feature's commands (added to core/commands.ts's union). They come from the agent HTTP routes
 * (net/routes/agents.ts), never from a game client.
 */
declare module '../../core/commands.ts' {
  interface CommandFields {
    /**
     * The agent's goal changed (set, stop, resume, or the current one on connecting): tell its
     * connection. With `stop`, the character's path and current action end in this tick first.
     */
    agentControl: { goal: AgentGoal | null; goalsPaused: boolean; stop: boolean };
    /** A message for the agent from its owner's dashboard. */
    agentMessage: { from: { accountId: string; name: string }; content: string; timestamp: number };
  }
}
