import { AgentApi } from '../../sdk/src/agent-api.ts';
import {
  admin,
  ask,
  GameClient,
  give,
  type Login,
  next,
  npcInView,
  type Payload,
  slotOf,
  walk,
} from './client.ts';

/**
 * One scene that changes every record kind a character has, through the game's own commands over a
 * real socket and its HTTP API: the state it leaves is what the restart tests expect back. Each kind
 * is moved away from what a fresh character has, so a kind that is not saved shows.
 *
 * - position, skills/xp, health, coins, inventory, equipment: player:sync
 * - bank: bank:update; quests: quest:list; prayer points: prayer:state
 * - home-teleport cooldown: a completed cast; npc kills: two thornback boars (they are also the quest's)
 * - friends, a pending request, the ignore list: social actions
 * - agents: a mapping with a goal, its reported progress and a message kept while it was offline, and
 *   a second mapping with goals paused
 */

export const QUEST = 'boar_trouble';
export const KILLED = 'thornback_boar';
export const KILLS = 2;
/** Next to Warden Corvin (604, 590), who gives the quest. */
const BY_WARDEN: [number, number] = [603, 590];
/** Within reach of the banker (590, 612) and the bank chest (588, 614). */
export const BY_BANK: [number, number] = [591, 613];
const AWAY: [number, number] = [600, 600];

export interface Scene {
  tag: string;
  main: Login;
  friend: { id: string; name: string };
  wanted: { login: Login; name: string };
  pest: { id: string; name: string };
  agent: { agentId: string; login: Login; message: string };
  pausedAgentId: string;
  /** What the main character looked like when the scene ended. */
  expect: {
    /** The last player:sync (position, skills, health, coins, inventory, equipment), at the walk's tile. */
    sync: Payload;
    bank: Payload;
    quest: Payload;
    prayer: { points: number; maxPoints: number };
    goal: { type: string; params: Record<string, unknown>; progress: number; note: string };
  };
}

/** Runs `fn`, naming `what` in its error. */
async function step<T>(what: string, fn: () => Promise<T>): Promise<T> {
  const t0 = Date.now();
  try {
    const r = await fn();
    if (process.env['RESTART_DEBUG']) console.log(`step ${what}: ${Date.now() - t0} ms`);
    return r;
  } catch (err) {
    throw new Error(`${what}: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** A character made over HTTP on a new anonymous account (never connected). */
async function offlineCharacter(base: string, name: string): Promise<{ login: Login; name: string }> {
  const { token } = await AgentApi.anonymous(base);
  const c = await new AgentApi(base, token).createCharacter(name);
  return { login: { characterId: c.id, sessionToken: token }, name };
}

/**
 * Plays the scene on the server at `base` with fresh characters whose names start with `tag` (a few
 * characters: names are at most 12). Every client it opened is closed again, except the main character
 * and its friend: the caller decides how the server stops while they are in the world.
 */
export async function playScene(
  base: string,
  wsUrl: string,
  tag: string,
  adminCode: string,
  opened: GameClient[],
): Promise<Scene> {
  const main = await GameClient.connect(wsUrl, undefined, `${tag}Main`);
  opened.push(main);
  const friendClient = await GameClient.connect(wsUrl, undefined, `${tag}Friend`);
  opened.push(friendClient);
  const wanted = await offlineCharacter(base, `${tag}Wanted`);
  const pest = await offlineCharacter(base, `${tag}Pest`);
  await admin(main, `/admin ${adminCode}`, /enabled/);

  // Social actions and the agent API touch nothing of the in-world steps: they run alongside them.
  const social = step('social', async () => {
    const received = next(friendClient, 'friend:requestReceived');
    await ask(main, 'friend:request', { name: `${tag}Friend` }, (m) => m.event === 'social:list');
    const { requestId } = await received;
    const befriended = next(main, 'social:list', (p) => p.friends.length === 1);
    await ask(friendClient, 'friend:respond', { requestId, accept: true }, (m) => {
      return m.event === 'social:list' && m.payload.friends.length === 1;
    });
    await befriended;
    await ask(main, 'friend:request', { name: wanted.name }, (m) => m.event === 'social:list');
    await ask(main, 'ignore:add', { name: pest.name }, (m) => {
      return m.event === 'social:list' && m.payload.ignored.length === 1;
    });
  });

  const goal = { type: 'explore', params: { area: 'ashwood', depth: 2 }, progress: 40, note: 'halfway' };
  const agents = step('agents', async () => {
    const api = new AgentApi(base, main.login.sessionToken);
    const character = await api.createCharacter(`${tag}Agent`);
    const mapping = await api.create(character.id);
    const login = { characterId: character.id, sessionToken: main.login.sessionToken };
    const runtime = await GameClient.connect(wsUrl, login);
    opened.push(runtime);
    const told = next(runtime, 'agent:goal', (p) => p.goal?.type === goal.type);
    await api.setGoal(mapping.agentId, { type: goal.type, params: goal.params });
    await told;
    runtime.send('agent:progress', { progress: goal.progress, note: goal.note });
    for (let i = 0; (await api.goal(mapping.agentId)).goal?.progress !== goal.progress; i++) {
      if (i > 100) throw new Error('agent:progress never reached the goal');
      await new Promise((r) => setTimeout(r, 50));
    }
    runtime.close();
    for (let i = 0; (await api.agent(mapping.agentId)).online; i++) {
      if (i > 200) throw new Error('the agent stays online');
      await new Promise((r) => setTimeout(r, 50));
    }
    const message = `kept ${tag}`;
    const sent = await api.message(mapping.agentId, message);
    if (sent.delivered) throw new Error('a message to an offline agent was delivered');
    const idle = await api.createCharacter(`${tag}Idle`);
    const paused = await api.create(idle.id);
    await api.stop(paused.agentId);
    return { agentId: mapping.agentId, login, message, pausedAgentId: paused.agentId };
  });
  // Awaited below; a failure of the in-world steps first must not leave them unhandled.
  social.catch(() => {});
  agents.catch(() => {});

  await step('home teleport', () => ask(main, 'player:homeTeleport', {}, (m) => m.event === 'teleport:done'));

  await step('quest start', async () => {
    await admin(main, `/tp ${BY_WARDEN[0]} ${BY_WARDEN[1]}`, /^Teleported/);
    const warden = await npcInView(main, 'warden_corvin');
    const node = (id: string) => (m: { event: string; payload: Payload }) =>
      m.event === 'dialogue:node' && m.payload.nodeId === id;
    await ask(main, 'player:action', { action: 'talk', targetId: warden }, node('greeting'));
    await ask(main, 'dialogue:choose', { optionId: 0 }, node('quest_offer'));
    const started = next(main, 'quest:update', (p) => p.questId === QUEST && p.stageId === 'hunt');
    main.send('dialogue:choose', { optionId: '0' });
    await started;
    main.send('dialogue:close', {});
  });

  await step('kills', async () => {
    for (let i = 0; i < KILLS; i++) {
      const reply = await admin(main, `/spawn ${KILLED}`, /^Spawned .*\((npc-\d+)\)/);
      const wireId = /\((npc-\d+)\)/.exec(reply)?.[1] as string;
      await admin(main, `/kill ${wireId}`, /^Killed/);
    }
  });

  // Prayer points below the prayer level (points restored at level 10, then the level raised to 20).
  await step('prayer', async () => {
    await admin(main, '/level prayer 10', /level 10/);
    await admin(main, '/heal', /^Healed/);
    const raised = next(main, 'prayer:state', (p) => p.maxPoints === 20);
    await admin(main, '/level prayer 20', /level 20/);
    const state = await raised;
    if (state.points !== 10) throw new Error(`prayer points ${state.points}, expected 10`);
  });

  // Health neither the created value nor the maximum: the maximum raised, then a loaf eaten.
  await step('health', async () => {
    await admin(main, '/level constitution 20', /level 20/);
    const before = main.sync.health as number;
    await give(main, 'barley_loaf', 1);
    await ask(main, 'inventory:use', { slot: slotOf(main, 'barley_loaf') }, (m) => {
      return m.event === 'player:sync' && m.payload.health > before;
    });
  });

  await step('skills and coins', async () => {
    await admin(main, '/xp woodcutting 1234', /^Added 1234/);
    await admin(main, '/coins 777', /^You now have/);
  });

  await step('equipment and inventory', async () => {
    await ask(main, 'inventory:use', { slot: slotOf(main, 'bronze_dagger') }, (m) => {
      return m.event === 'player:sync' && m.payload.equipment.weapon?.itemId === 'bronze_dagger';
    });
    await give(main, 'raw_minnow', 3);
    const from = slotOf(main, 'raw_minnow');
    await ask(main, 'inventory:move', { from, to: 27 }, (m) => {
      return m.event === 'player:sync' && m.payload.inventory[27]?.itemId === 'raw_minnow';
    });
  });

  await step('bank', async () => {
    await admin(main, `/tp ${BY_BANK[0]} ${BY_BANK[1]}`, /^Teleported/);
    const banker = await npcInView(main, 'banker_ilse');
    await ask(main, 'player:action', { action: 'bank', targetId: banker }, (m) => m.event === 'bank:update');
    await ask(main, 'bank:deposit', { slot: 27 }, (m) => {
      return m.event === 'bank:update' && m.payload.items.some((s: Payload) => s.itemId === 'raw_minnow');
    });
    await ask(main, 'bank:deposit', { slot: slotOf(main, 'raw_minnow') }, (m) => {
      return m.event === 'bank:update' && m.payload.items.some((s: Payload) => s.quantity === 2);
    });
  });

  await social;
  const agent = await agents;

  // Last, a walk: the position changes tick after tick (the waiting snapshot refreshed in place).
  await step('walk', async () => {
    await admin(main, `/tp ${AWAY[0]} ${AWAY[1]}`, /^Teleported/);
    await walk(main, BY_BANK[0], BY_BANK[1]);
  });

  const quest = await step('quest list', async () => {
    const list = await ask(main, 'quest:list', {}, (m) => m.event === 'quest:list');
    const q = list.quests.find((x: Payload) => x.questId === QUEST);
    if (q?.progress !== KILLS) throw new Error(`quest progress ${JSON.stringify(q)}`);
    return q;
  });
  const prayer = main.log.filter((m) => m.event === 'prayer:state').at(-1)?.payload;
  const bank = main.log.filter((m) => m.event === 'bank:update').at(-1)?.payload;
  // The latest sync, and the tile the walk ended on (sync is not sent for a walk).
  const sync = { ...main.sync, position: { ...main.sync.position, x: main.tile?.x, z: main.tile?.z } };
  return {
    tag,
    main: main.login,
    friend: { id: friendClient.id, name: `${tag}Friend` },
    wanted,
    pest: { id: pest.login.characterId, name: pest.name },
    agent: { agentId: agent.agentId, login: agent.login, message: agent.message },
    pausedAgentId: agent.pausedAgentId,
    expect: {
      sync,
      bank: bank.items,
      quest,
      prayer: { points: prayer.points, maxPoints: prayer.maxPoints },
      goal,
    },
  };
}
