import { z } from 'zod';
import { clientEvent, defineWire, serverEvent } from '../../core/faces/wire.ts';

/** AI agents' wire face: the goal and messages an agent's connection receives, and the progress it reports. */

export const agentGoal = z.object({
  type: z.string(),
  target: z.string().optional(),
  params: z.record(z.string(), z.unknown()).optional(),
  label: z.string(),
  /** Epoch milliseconds. */
  startedAt: z.number().int(),
  /** 0..100, as the agent last reported it (`agent:progress`). */
  progress: z.number().optional(),
  /** The agent's last progress note. */
  note: z.string().optional(),
});
export const agentGoalEvent = z.object({ goal: agentGoal.nullable(), goalsPaused: z.boolean() });
export const agentMessage = z.object({
  from: z.object({ accountId: z.string(), name: z.string() }),
  content: z.string(),
  timestamp: z.number().int(),
});

export const agentsWire = defineWire({
  client: {
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
  },
  server: {
    'agent:goal': serverEvent({
      schema: agentGoalEvent,
      doc: "The agent's goal changed (set, stopped, resumed from its owner's dashboard); also sent when the agent connects. `goalsPaused` true: stand still and set no goal until resumed. See [agents.md](agents.md).",
      from: 'agentGoal',
    }),
    'agent:message': serverEvent({
      schema: agentMessage,
      doc: "A message to the agent from its owner's dashboard (`timestamp` in epoch ms). Messages sent while the agent was offline (at most 50, the newest) arrive when it connects.",
      from: 'agentMessage',
    }),
  },
});
