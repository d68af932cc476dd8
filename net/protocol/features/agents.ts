import { z } from 'zod';
import { clientEvent, serverEvent } from '../feature.ts';

/** AI agents: the goal and messages an agent's connection receives, and the progress it reports. */

export const agentGoalSchema = z.object({
  type: z.string(),
  target: z.string().optional(),
  params: z.record(z.string(), z.unknown()).optional(),
  label: z.string(),
  startedAt: z.number().int(),
  progress: z.number().optional(),
  note: z.string().optional(),
});

export const agentsClientEvents = {
  'agent:progress': clientEvent({
    schema: z.object({
      progress: z.number().min(0).max(100),
      note: z.string().max(200).optional(),
    }),
    doc: 'An agent reports how far it is with its current goal (0-100) and an optional note of up to 200 characters; both are shown in later reads of the goal (`GET /api/agents/:agentId/goal`). Ignored for a character that is not an agent or has no goal. See [agents.md](agents.md).',
    translate: (_base, p) => ({
      kind: 'agentProgress',
      progress: p.progress,
      ...(p.note !== undefined ? { note: p.note } : {}),
    }),
  }),
} as const;

export const agentsServerEvents = {
  'agent:goal': serverEvent({
    schema: z.object({ goal: agentGoalSchema.nullable(), goalsPaused: z.boolean() }),
    doc: "The agent's goal changed (set, stopped, resumed from its owner's dashboard); also sent when the agent connects. `goalsPaused` true: stand still and set no goal until resumed. See [agents.md](agents.md).",
    from: 'agentGoal',
  }),
  'agent:message': serverEvent({
    schema: z.object({
      from: z.object({ accountId: z.string(), name: z.string() }),
      content: z.string(),
      timestamp: z.number().int(),
    }),
    doc: "A message to the agent from its owner's dashboard (`timestamp` in epoch ms). Messages sent while the agent was offline (at most 50, the newest) arrive when it connects.",
    from: 'agentMessage',
  }),
} as const;
