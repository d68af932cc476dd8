/** An AI agent's goal, as the agent routes keep it and the agent's connection receives it. */
export interface AgentGoal {
  type: string;
  target?: string | undefined;
  params?: Record<string, unknown> | undefined;
  label: string;
  /** Epoch milliseconds. */
  startedAt: number;
  /** 0..100, as the agent last reported it (`agent:progress`). */
  progress?: number | undefined;
  /** The agent's last progress note. */
  note?: string | undefined;
}

declare module '../../core/events.ts' {
  interface SimEventData {
    agentGoal: { goal: AgentGoal | null; goalsPaused: boolean };
    agentMessage: { from: { accountId: string; name: string }; content: string; timestamp: number };
  }
}
