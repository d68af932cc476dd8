import { randomUUID } from 'node:crypto';
import type { CharacterState } from '../../ecs/core/character-state.ts';
import type { Command } from '../../ecs/core/commands.ts';
import { combatLevel, maxHealthFor } from '../../ecs/core/skills.ts';
import {
  type AgentGoal,
  GOAL_TYPES,
  type GoalOption,
  type GoalType,
  type Surroundings,
} from '../../ecs/features/agents/index.ts';
import type { AgentGoalRow, AgentMappingRow, PersistencePort } from '../../persistence/port.ts';
import { HttpError } from '../http/types.ts';

/**
 * The AI agents of the server: which character each agent plays (mappings), its goal and pause flag,
 * and the messages kept while it is offline. Goals are the agent runtime's plan, not world state: they
 * live here (cached, written through to the database before a route answers) and reach the world only
 * as commands queued for the next tick (`agentControl`, `agentMessage`). Everything read from the world
 * (position, inventory, what is nearby) comes through AgentWorld, which the world runtime implements.
 */

/** Messages kept for an offline agent; older ones are dropped. */
export const MAX_KEPT_MESSAGES = 50;

/** The world as the agent routes see it: commands for the next tick, copies for reading. */
export interface AgentWorld {
  enqueue(cmd: Command): void;
  liveCharacter(characterId: string): Readonly<CharacterState> | null;
  /** What is around tile (x, z) for that character (null: a character not in the world). */
  surroundings(x: number, z: number, selfId: string | null): Surroundings;
}

/** Whether a character has a live connection (the session registry). */
export interface AgentConnections {
  connection(characterId: string): unknown;
}

export type AgentPort = Pick<
  PersistencePort,
  | 'getUser'
  | 'loadCharacter'
  | 'createAgentMapping'
  | 'getAgentMapping'
  | 'listAgentMappings'
  | 'agentMappingsOfCharacter'
  | 'agentCharacterIds'
  | 'deleteAgentMapping'
  | 'loadAgentGoal'
  | 'saveAgentGoal'
  | 'queueAgentMessage'
  | 'takeAgentMessages'
>;

export interface AgentServiceDeps {
  port: AgentPort;
  world: AgentWorld;
  connections: AgentConnections;
  now?: () => number;
  onError?: (err: unknown, what: string) => void;
}

export interface GoalState {
  goal: AgentGoal | null;
  goalsPaused: boolean;
}

export interface QuickCommand {
  id: string;
  label: string;
  command: string;
  available: boolean;
  reason?: string;
}

export const goalsPaused = () =>
  new HttpError(409, 'GOALS_PAUSED', 'Goals are paused: POST .../goal/resume before setting a goal');

export class AgentService {
  private readonly port: AgentPort;
  private readonly world: AgentWorld;
  private readonly connections: AgentConnections;
  private readonly now: () => number;
  private readonly onError: (err: unknown, what: string) => void;
  /** Mappings read or written so far (a deleted one is forgotten). */
  private readonly mappings = new Map<string, AgentMappingRow>();
  /** Goal state by character, loaded on first use. */
  private readonly goals = new Map<string, GoalState>();
  /** Number of agents per character, loaded once: a login of a character with none costs no query. */
  private agentCount: Promise<Map<string, number>> | undefined;
  /** Per-agent order of message writes and reads, so a message queued during a connect is not missed. */
  private readonly lanes = new Map<string, Promise<unknown>>();

  constructor(deps: AgentServiceDeps) {
    this.port = deps.port;
    this.world = deps.world;
    this.connections = deps.connections;
    this.now = deps.now ?? Date.now;
    this.onError = deps.onError ?? (() => {});
  }

  private inLane<T>(agentId: string, work: () => Promise<T>): Promise<T> {
    const prev = this.lanes.get(agentId) ?? Promise.resolve();
    const next = prev.then(work, work);
    const tail = next.catch(() => {});
    this.lanes.set(agentId, tail);
    void tail.then(() => {
      if (this.lanes.get(agentId) === tail) this.lanes.delete(agentId);
    });
    return next;
  }

  // mappings

  async mapping(agentId: string): Promise<AgentMappingRow | null> {
    const cached = this.mappings.get(agentId);
    if (cached !== undefined) return cached;
    const row = await this.port.getAgentMapping(agentId);
    if (row !== null) this.mappings.set(agentId, row);
    return row;
  }

  private counts(): Promise<Map<string, number>> {
    if (this.agentCount === undefined) {
      const loading = this.port.agentCharacterIds().then((ids) => {
        const counts = new Map<string, number>();
        for (const id of ids) counts.set(id, (counts.get(id) ?? 0) + 1);
        return counts;
      });
      this.agentCount = loading;
      // A failed load is tried again next time.
      loading.catch(() => {
        if (this.agentCount === loading) this.agentCount = undefined;
      });
    }
    return this.agentCount;
  }

  async create(
    accountId: string,
    character: { id: string; name: string },
    name?: string,
  ): Promise<AgentMappingRow> {
    const row = await this.port.createAgentMapping({
      agentId: randomUUID(),
      accountId,
      characterId: character.id,
      name: name ?? character.name,
    });
    this.mappings.set(row.agentId, row);
    const counts = await this.counts();
    counts.set(row.characterId, (counts.get(row.characterId) ?? 0) + 1);
    return row;
  }

  list(accountId: string): Promise<AgentMappingRow[]> {
    return this.port.listAgentMappings(accountId);
  }

  async remove(m: AgentMappingRow): Promise<void> {
    await this.inLane(m.agentId, () => this.port.deleteAgentMapping(m.agentId));
    this.mappings.delete(m.agentId);
    const counts = await this.counts();
    const left = (counts.get(m.characterId) ?? 1) - 1;
    if (left > 0) counts.set(m.characterId, left);
    else counts.delete(m.characterId);
  }

  online(m: AgentMappingRow): boolean {
    return this.connections.connection(m.characterId) !== undefined;
  }

  // goals

  async goalState(characterId: string): Promise<GoalState> {
    const cached = this.goals.get(characterId);
    if (cached !== undefined) return cached;
    const row = await this.port.loadAgentGoal(characterId);
    // A concurrent load may have filled it meanwhile: keep the first.
    const again = this.goals.get(characterId);
    if (again !== undefined) return again;
    const state: GoalState = {
      goal: (row?.goal as AgentGoal | null | undefined) ?? null,
      goalsPaused: row?.paused ?? false,
    };
    this.goals.set(characterId, state);
    return state;
  }

  private async store(characterId: string, next: GoalState, stop: boolean): Promise<void> {
    const row: AgentGoalRow = {
      goal: next.goal === null ? null : (JSON.parse(JSON.stringify(next.goal)) as Record<string, unknown>),
      paused: next.goalsPaused,
    };
    await this.port.saveAgentGoal(characterId, row);
    this.goals.set(characterId, next);
    this.world.enqueue({
      type: 'agentControl',
      characterId,
      goal: next.goal,
      goalsPaused: next.goalsPaused,
      stop,
    });
  }

  /** Sets the goal; 409 GOALS_PAUSED while paused, 400 for a goal the world does not offer now. */
  async setGoal(
    m: AgentMappingRow,
    want: { type: string; target?: string | undefined; params?: Record<string, unknown> | undefined },
    options: GoalOption[],
  ): Promise<GoalState> {
    const current = await this.goalState(m.characterId);
    if (current.goalsPaused) throw goalsPaused();
    if (!(GOAL_TYPES as readonly string[]).includes(want.type))
      throw new HttpError(
        400,
        'BAD_REQUEST',
        `Unknown goal type "${want.type}": one of ${GOAL_TYPES.join(', ')}`,
      );
    const option = options.find((o) => o.type === (want.type as GoalType));
    if (option === undefined || !option.available)
      throw new HttpError(
        400,
        'BAD_REQUEST',
        `Goal "${want.type}" is not available: ${option?.reason ?? 'unknown'}`,
      );
    const target = want.target ?? option.target;
    const goal: AgentGoal = {
      type: option.type,
      ...(target !== undefined ? { target } : {}),
      ...(want.params !== undefined ? { params: want.params } : {}),
      label: option.label,
      startedAt: this.now(),
    };
    const next = { goal, goalsPaused: false };
    await this.store(m.characterId, next, false);
    return next;
  }

  /** Pauses goals: the goal is dropped, and the character's path and action end in the next tick. */
  async stop(m: AgentMappingRow): Promise<GoalState> {
    await this.goalState(m.characterId);
    const next = { goal: null, goalsPaused: true };
    await this.store(m.characterId, next, true);
    return next;
  }

  async resume(m: AgentMappingRow): Promise<GoalState> {
    const current = await this.goalState(m.characterId);
    const next = { goal: current.goal, goalsPaused: false };
    await this.store(m.characterId, next, false);
    return next;
  }

  /** `agent:progress` from the agent's connection: noted on its current goal. */
  progress(characterId: string, progress: number, note: string | undefined): void {
    void this.counts()
      .then((counts) => (counts.has(characterId) ? this.goalState(characterId) : null))
      .then(async (state) => {
        if (state === null) return;
        if (state.goal === null) return;
        const goal: AgentGoal = { ...state.goal, progress };
        if (note !== undefined) goal.note = note;
        else delete goal.note;
        state.goal = goal;
        await this.port.saveAgentGoal(characterId, {
          goal: JSON.parse(JSON.stringify(goal)) as Record<string, unknown>,
          paused: state.goalsPaused,
        });
      })
      .catch((err: unknown) => this.onError(err, 'agent progress'));
  }

  // messages

  /** Delivers to the connected agent in the next tick, or keeps it for the next connect; true when delivered. */
  async message(m: AgentMappingRow, fromAccountId: string, content: string): Promise<boolean> {
    const user = await this.port.getUser(fromAccountId);
    const fromName = user?.name ?? 'Owner';
    const timestamp = this.now();
    return this.inLane(m.agentId, async () => {
      if (this.online(m)) {
        this.world.enqueue({
          type: 'agentMessage',
          characterId: m.characterId,
          from: { accountId: fromAccountId, name: fromName },
          content,
          timestamp,
        });
        return true;
      }
      await this.port.queueAgentMessage(
        m.agentId,
        { fromAccountId, fromName, content, sentAtMs: timestamp },
        MAX_KEPT_MESSAGES,
      );
      return false;
    });
  }

  /**
   * A character entered the world (its join is queued): when it is an agent, its goal and the messages
   * kept for it follow the join, in that order.
   */
  joined(characterId: string): void {
    void this.deliverOnJoin(characterId).catch((err: unknown) => this.onError(err, 'agent join delivery'));
  }

  private async deliverOnJoin(characterId: string): Promise<void> {
    if (!(await this.counts()).has(characterId)) return;
    const mappings = await this.port.agentMappingsOfCharacter(characterId);
    if (mappings.length === 0) return;
    const state = await this.goalState(characterId);
    if (this.connections.connection(characterId) === undefined) return;
    this.world.enqueue({
      type: 'agentControl',
      characterId,
      goal: state.goal,
      goalsPaused: state.goalsPaused,
      stop: false,
    });
    for (const m of mappings) {
      this.mappings.set(m.agentId, m);
      await this.inLane(m.agentId, async () => {
        const kept = await this.port.takeAgentMessages(m.agentId);
        for (const msg of kept) {
          if (this.online(m)) {
            this.world.enqueue({
              type: 'agentMessage',
              characterId,
              from: { accountId: msg.fromAccountId, name: msg.fromName },
              content: msg.content,
              timestamp: msg.sentAtMs,
            });
          } else {
            // Gone again before delivery: keep it for the next connect.
            await this.port.queueAgentMessage(m.agentId, msg, MAX_KEPT_MESSAGES);
          }
        }
      });
    }
  }

  // reads of the world

  /** The character as it is now: live from the world, else as last saved; null when it no longer exists. */
  async character(m: AgentMappingRow): Promise<Readonly<CharacterState> | null> {
    return this.world.liveCharacter(m.characterId) ?? (await this.port.loadCharacter(m.characterId));
  }

  /** The quick-actions body: the character, what is around it, the goals and the dashboard's buttons. */
  async quickActions(m: AgentMappingRow) {
    const ch = await this.character(m);
    if (ch === null) throw new HttpError(404, 'NOT_FOUND', "The agent's character no longer exists");
    const state = await this.goalState(m.characterId);
    const online = this.world.liveCharacter(m.characterId) !== null;
    const x = Math.round(ch.position.x);
    const z = Math.round(ch.position.z);
    const around = this.world.surroundings(x, z, online ? m.characterId : null);
    return {
      state,
      body: {
        position: { x, z },
        inventory: ch.inventory.map((s) => (s === null ? null : { itemId: s.itemId, quantity: s.quantity })),
        playerStats: {
          health: ch.health,
          maxHealth: maxHealthFor(ch.skills),
          combatLevel: combatLevel(ch.skills),
          coins: ch.coins,
        },
        nearbyLocations: around.nearbyLocations,
        availableGoals: around.availableGoals,
        quickCommands: quickCommands(around.availableGoals, state.goalsPaused),
      },
    };
  }

  /** The goals the world offers this agent's character now. */
  async availableGoals(m: AgentMappingRow): Promise<GoalOption[]> {
    const ch = await this.character(m);
    if (ch === null) throw new HttpError(404, 'NOT_FOUND', "The agent's character no longer exists");
    const online = this.world.liveCharacter(m.characterId) !== null;
    return this.world.surroundings(
      Math.round(ch.position.x),
      Math.round(ch.position.z),
      online ? m.characterId : null,
    ).availableGoals;
  }
}

/** The dashboard's buttons: `stop`, `resume`, and `goal:<type>` for each goal type. */
export function quickCommands(goals: GoalOption[], paused: boolean): QuickCommand[] {
  const list: QuickCommand[] = [
    paused
      ? {
          id: 'stop',
          label: 'Stop goals',
          command: 'stop',
          available: false,
          reason: 'goals are already paused',
        }
      : { id: 'stop', label: 'Stop goals', command: 'stop', available: true },
    paused
      ? { id: 'resume', label: 'Resume goals', command: 'resume', available: true }
      : {
          id: 'resume',
          label: 'Resume goals',
          command: 'resume',
          available: false,
          reason: 'goals are running',
        },
  ];
  for (const g of goals) {
    const base = { id: `goal-${g.type}`, label: g.label, command: `goal:${g.type}` };
    if (paused) list.push({ ...base, available: false, reason: 'goals are paused' });
    else if (!g.available)
      list.push({ ...base, available: false, ...(g.reason ? { reason: g.reason } : {}) });
    else list.push({ ...base, available: true });
  }
  return list;
}
