/**
 * The agent HTTP API (`/api/agents/*` for the owner's dashboard, `/api/agent/*` for the agent runtime)
 * with a bearer token. Every failure is an AgentApiError carrying the problem's status and code.
 * The shapes are described in docs/agents.md.
 */

export interface AgentMapping {
  agentId: string;
  characterId: string;
  accountId: string;
  name: string;
  createdAt: string;
}

export interface Goal {
  type: string;
  target?: string;
  params?: Record<string, unknown>;
  label: string;
  startedAt: number;
  progress?: number;
  note?: string;
}

export interface GoalOption {
  type: string;
  label: string;
  target?: string;
  available: boolean;
  reason?: string;
}

export interface GoalResponse {
  goal: Goal | null;
  goalsPaused: boolean;
  availableGoals: GoalOption[];
}

export interface NearbyLocation {
  id: string;
  type: 'bank' | 'shop' | 'resource' | 'npc' | 'station';
  name: string;
  x: number;
  z: number;
  distance: number;
}

export interface QuickActions {
  position: { x: number; z: number };
  inventory: ({ itemId: string; quantity: number } | null)[];
  playerStats: { health: number; maxHealth: number; combatLevel: number; coins: number };
  nearbyLocations: NearbyLocation[];
  availableGoals: GoalOption[];
  quickCommands: { id: string; label: string; command: string; available: boolean; reason?: string }[];
}

export class AgentApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    detail: string,
  ) {
    super(`${status} ${code}: ${detail}`);
    this.name = 'AgentApiError';
  }
}

export class AgentApi {
  /** `baseUrl`: `http://host:port`. */
  constructor(
    readonly baseUrl: string,
    public token: string,
  ) {}

  /** A new temporary account (servers in anonymous mode): its session token. */
  static async anonymous(baseUrl: string): Promise<{ token: string; accountId: string }> {
    const res = await fetch(`${baseUrl}/api/auth/anonymous`, { method: 'POST' });
    if (!res.ok) throw new AgentApiError(res.status, 'UNAUTHORIZED', await res.text());
    return (await res.json()) as { token: string; accountId: string };
  }

  private async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.token}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers,
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    const json = text === '' ? {} : (JSON.parse(text) as Record<string, unknown>);
    if (!res.ok)
      throw new AgentApiError(res.status, String(json['code'] ?? 'ERROR'), String(json['detail'] ?? text));
    return json as T;
  }

  /** A character of the account (creates one named `name`; the server picks a template). */
  async createCharacter(name: string): Promise<{ id: string; name: string }> {
    return (
      await this.call<{ character: { id: string; name: string } }>('POST', '/api/character/create', { name })
    ).character;
  }

  create(characterId: string, name?: string): Promise<AgentMapping> {
    return this.call('POST', '/api/agents', { characterId, ...(name !== undefined ? { name } : {}) });
  }

  async list(): Promise<(AgentMapping & { online: boolean })[]> {
    return (await this.call<{ agents: (AgentMapping & { online: boolean })[] }>('GET', '/api/agents')).agents;
  }

  mapping(agentId: string): Promise<AgentMapping> {
    return this.call('GET', `/api/agents/mapping/${encodeURIComponent(agentId)}`);
  }

  remove(agentId: string): Promise<{ agentId: string; deleted: boolean }> {
    return this.call('DELETE', `/api/agents/${encodeURIComponent(agentId)}`);
  }

  goal(agentId: string): Promise<GoalResponse> {
    return this.call('GET', `/api/agents/${encodeURIComponent(agentId)}/goal`);
  }

  setGoal(
    agentId: string,
    goal: { type: string; target?: string; params?: Record<string, unknown> },
  ): Promise<GoalResponse> {
    return this.call('POST', `/api/agents/${encodeURIComponent(agentId)}/goal`, goal);
  }

  stop(agentId: string): Promise<GoalResponse & { success: boolean }> {
    return this.call('POST', `/api/agents/${encodeURIComponent(agentId)}/goal/stop`);
  }

  resume(agentId: string): Promise<GoalResponse & { success: boolean }> {
    return this.call('POST', `/api/agents/${encodeURIComponent(agentId)}/goal/resume`);
  }

  message(agentId: string, content: string): Promise<{ delivered: boolean }> {
    return this.call('POST', `/api/agents/${encodeURIComponent(agentId)}/message`, { content });
  }

  quickActions(agentId: string): Promise<QuickActions> {
    return this.call('GET', `/api/agents/${encodeURIComponent(agentId)}/quick-actions`);
  }

  /** The agent runtime's view: the mapping and whether it is online. */
  agent(agentId: string): Promise<AgentMapping & { online: boolean }> {
    return this.call('GET', `/api/agent/${encodeURIComponent(agentId)}`);
  }

  /** The agent runtime's view: quick actions plus the goal and pause flag. */
  state(agentId: string): Promise<QuickActions & { goal: Goal | null; goalsPaused: boolean }> {
    return this.call('GET', `/api/agent/${encodeURIComponent(agentId)}/state`);
  }
}
