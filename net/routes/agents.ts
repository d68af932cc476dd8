import { authOf, param } from '../auth/http-input.ts';
import { forbidden, type HttpRequest, notFound, type RouteDef } from '../http/types.ts';

/**
 * Agent ownership: which character an AI agent plays, and which account owns it (agent_mappings).
 * GET /api/agents/mapping/:agentId and GET /api/agent/:agentId. Bearer; 404 unknown, 403 another
 * account's. The goal/message/quick-action routes of the specification build on `requireAgent`.
 */

export interface AgentMapping {
  agentId: string;
  accountId: string;
  characterId: string;
  createdAt: Date | null;
}

/** Read access to agent_mappings; implemented over persistence at integration. */
export interface AgentDirectory {
  getAgentMapping(agentId: string): Promise<AgentMapping | null>;
}

/** Until persistence offers agent mappings: every agent is unknown (404). */
export const noAgents: AgentDirectory = { getAgentMapping: async () => null };

export async function requireAgent(agents: AgentDirectory, req: HttpRequest): Promise<AgentMapping> {
  const auth = authOf(req);
  const agentId = param(req, 'agentId');
  const mapping = await agents.getAgentMapping(agentId);
  if (mapping === null) throw notFound(`No agent "${agentId}"`);
  if (mapping.accountId !== auth.accountId) throw forbidden('This agent belongs to another account');
  return mapping;
}

const view = (m: AgentMapping) => ({
  agentId: m.agentId,
  characterId: m.characterId,
  accountId: m.accountId,
  createdAt: m.createdAt === null ? null : m.createdAt.toISOString(),
});

export function agentRoutes(deps: { agents: AgentDirectory }): RouteDef[] {
  return [
    {
      method: 'GET',
      path: '/api/agents/mapping/:agentId',
      auth: 'bearer',
      handler: async (req) => ({ body: view(await requireAgent(deps.agents, req)) }),
    },
    {
      method: 'GET',
      path: '/api/agent/:agentId',
      auth: 'bearer',
      handler: async (req) => ({ body: view(await requireAgent(deps.agents, req)) }),
    },
  ];
}
