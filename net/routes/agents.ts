import { z } from 'zod';
import type { AgentMappingRow, PersistencePort } from '../../persistence/port.ts';
import type { AgentService } from '../agents/service.ts';
import { authOf, param, parseBody } from '../auth/http-input.ts';
import { forbidden, type HttpRequest, notFound, type RouteDef } from '../http/types.ts';

/**
 * The AI-agent routes. `/api/agents/*` serves the owner's dashboard (mappings, goals, stop/resume,
 * messages, quick actions); `/api/agent/*` serves the agent runtime itself. Every route checks the
 * bearer token first (401, the transport), then ownership (403 for another account's agent), then
 * existence (404). Reads of the world and changes to it go through AgentService (net/agents/service.ts).
 */

const createBody = z.object({
  characterId: z.string().min(1).max(128),
  name: z.string().trim().min(1).max(64).optional(),
});
const goalBody = z.object({
  type: z.string().min(1).max(32),
  target: z.string().min(1).max(128).optional(),
  params: z.record(z.string(), z.unknown()).optional(),
});
const messageBody = z.object({ content: z.string().min(1).max(500) });

export interface AgentRouteDeps {
  agents: AgentService;
  port: Pick<PersistencePort, 'loadCharacter'>;
}

/** 401 (transport) -> 403 another account's agent -> 404 unknown agent. */
export async function requireAgent(agents: AgentService, req: HttpRequest): Promise<AgentMappingRow> {
  const auth = authOf(req);
  const agentId = param(req, 'agentId');
  const mapping = await agents.mapping(agentId);
  if (mapping !== null && mapping.accountId !== auth.accountId)
    throw forbidden('This agent belongs to another account');
  if (mapping === null) throw notFound(`No agent "${agentId}"`);
  return mapping;
}

export const mappingView = (m: AgentMappingRow) => ({
  agentId: m.agentId,
  characterId: m.characterId,
  accountId: m.accountId,
  name: m.name,
  createdAt: m.createdAt.toISOString(),
});

export function agentRoutes({ agents, port }: AgentRouteDeps): RouteDef[] {
  const goalResponse = async (m: AgentMappingRow) => {
    const state = await agents.goalState(m.characterId);
    return {
      goal: state.goal,
      goalsPaused: state.goalsPaused,
      availableGoals: await agents.availableGoals(m),
    };
  };
  const route = (method: RouteDef['method'], path: string, handler: RouteDef['handler']): RouteDef => ({
    method,
    path,
    auth: 'bearer',
    handler,
  });

  return [
    route('POST', '/api/agents', async (req) => {
      const auth = authOf(req);
      const body = parseBody(createBody, req.body);
      const character = await port.loadCharacter(body.characterId);
      if (character !== null && character.accountId !== auth.accountId)
        throw forbidden('This character belongs to another account');
      if (character === null) throw notFound(`No character "${body.characterId}"`);
      const m = await agents.create(auth.accountId, character, body.name);
      return { status: 201, body: mappingView(m) };
    }),
    route('GET', '/api/agents', async (req) => {
      const rows = await agents.list(authOf(req).accountId);
      return { body: { agents: rows.map((m) => ({ ...mappingView(m), online: agents.online(m) })) } };
    }),
    route('GET', '/api/agents/mapping/:agentId', async (req) => ({
      body: mappingView(await requireAgent(agents, req)),
    })),
    route('DELETE', '/api/agents/:agentId', async (req) => {
      const m = await requireAgent(agents, req);
      await agents.remove(m);
      return { body: { agentId: m.agentId, deleted: true } };
    }),
    route('GET', '/api/agents/:agentId/goal', async (req) => ({
      body: await goalResponse(await requireAgent(agents, req)),
    })),
    route('POST', '/api/agents/:agentId/goal', async (req) => {
      const m = await requireAgent(agents, req);
      const body = parseBody(goalBody, req.body);
      const availableGoals = await agents.availableGoals(m);
      const state = await agents.setGoal(m, body, availableGoals);
      return { body: { goal: state.goal, goalsPaused: state.goalsPaused, availableGoals } };
    }),
    route('POST', '/api/agents/:agentId/goal/stop', async (req) => {
      const m = await requireAgent(agents, req);
      await agents.stop(m);
      return { body: { success: true, ...(await goalResponse(m)) } };
    }),
    route('POST', '/api/agents/:agentId/goal/resume', async (req) => {
      const m = await requireAgent(agents, req);
      await agents.resume(m);
      return { body: { success: true, ...(await goalResponse(m)) } };
    }),
    route('POST', '/api/agents/:agentId/message', async (req) => {
      const m = await requireAgent(agents, req);
      const { content } = parseBody(messageBody, req.body);
      const delivered = await agents.message(m, authOf(req).accountId, content);
      return { status: 202, body: { delivered } };
    }),
    route('GET', '/api/agents/:agentId/quick-actions', async (req) => {
      const m = await requireAgent(agents, req);
      return { body: (await agents.quickActions(m)).body };
    }),
    route('GET', '/api/agent/:agentId', async (req) => {
      const m = await requireAgent(agents, req);
      return { body: { ...mappingView(m), online: agents.online(m) } };
    }),
    route('GET', '/api/agent/:agentId/state', async (req) => {
      const m = await requireAgent(agents, req);
      const { body, state } = await agents.quickActions(m);
      return { body: { ...body, goal: state.goal, goalsPaused: state.goalsPaused } };
    }),
  ];
}
