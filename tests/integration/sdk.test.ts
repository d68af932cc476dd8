import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverEvents } from '../../net/protocol/server-events.ts';
import { AgentApi, AgentApiError, GameClient, GameError } from '../../sdk/src/index.ts';
import type { WorldServer } from '../../src/world-server.ts';
import { type DefaultWorld, startDefaultWorld } from '../helpers/default-world.ts';

/**
 * The client SDK (sdk/) against the real server: connecting in both encodings (anonymous and with a
 * token), the world view kept from player:sync and world:update, moveTo resolving on arrival and
 * rejecting with the server's error, chat, banking, reconnecting with the session token, and the agent
 * HTTP API with the agent events.
 */

const TICK_MS = 50;
let world: DefaultWorld;
let _srv: WorldServer;
let base: string;
let wsUrl: string;
const clients: GameClient[] = [];

beforeAll(async () => {
  world = await startDefaultWorld('sdk', { TICK_MS: String(TICK_MS) });
  _srv = world.srv;
  base = world.base;
  wsUrl = world.wsUrl;
});

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await world?.stop();
});

const track = (c: GameClient) => {
  clients.push(c);
  return c;
};

describe('GameClient', () => {
  it.each(['json', 'msgpack'] as const)(
    'connects anonymously (%s) and keeps a world view',
    async (encoding) => {
      const c = track(await GameClient.connect({ url: wsUrl, encoding }));
      expect(c.characterId).toEqual(expect.any(String));
      expect(c.sessionToken).toEqual(expect.any(String));
      expect(c.world.self?.id).toBe(c.characterId);
      expect(serverEvents['player:sync'].parse(c.world.self)).toEqual(c.world.self);
      expect(c.world.position).toEqual({ x: expect.any(Number), z: expect.any(Number) });
      await c.next('world:update', 5000, (u) => u.entities.length > 0);
      expect(c.world.entities.size).toBeGreaterThan(0);
      expect(c.world.entities.has(c.characterId as string)).toBe(false);
    },
  );

  it('moveTo resolves on arrival and rejects with the server error for a tile too far away', async () => {
    const c = track(await GameClient.connect({ url: wsUrl, encoding: 'json' }));
    const from = c.world.position as { x: number; z: number };
    const at = await c.moveTo(from.x + 4, from.z, { timeoutMs: 10_000 });
    expect(at).toEqual({ x: from.x + 4, z: from.z });
    expect(c.world.position).toEqual(at);
    const err = await c.moveTo(from.x + 500, from.z).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GameError);
    expect((err as GameError).code).toBe('TOO_FAR');
  });

  it('say is heard as a chat:message; bank opens the nearest bank and deposits', async () => {
    const c = track(await GameClient.connect({ url: wsUrl, encoding: 'msgpack' }));
    const heard = c.next('chat:message', 5000, (m) => m.message === 'hello from the sdk');
    c.say('hello from the sdk');
    expect((await heard).channel).toBe('local');
    await c.next(
      'world:update',
      5000,
      () => c.world.ofType('station').length + c.world.ofType('npc').length > 0,
    );
    const bank = c.world.nearest((e) => e.stationType === 'bank');
    expect(bank).toBeDefined();
    const opened = await c.bank(bank?.id as string, 20_000);
    expect(Array.isArray(opened.items)).toBe(true);
    const slot = c.world.self?.inventory.findIndex((s) => s !== null) ?? -1;
    if (slot >= 0) {
      const after = await c.deposit(slot);
      expect(after.items.length).toBeGreaterThan(0);
    }
  });

  it('reconnects as the same account and character with the session token', async () => {
    const first = track(await GameClient.connect({ url: wsUrl, encoding: 'json' }));
    const token = first.sessionToken as string;
    await first.close();
    const again = track(
      await GameClient.connect({
        url: wsUrl,
        encoding: 'json',
        token,
        characterId: first.characterId as string,
      }),
    );
    expect(again.accountId).toBe(first.accountId);
    expect(again.characterId).toBe(first.characterId);
  });
});

describe('GameClient reconnection', () => {
  it('reopens a dropped connection with the session token, as the same character', async () => {
    const c = track(await GameClient.connect({ url: wsUrl, encoding: 'msgpack', reconnect: true }));
    const { accountId, characterId } = c;
    const back = c.next('player:sync', 20_000);
    // A network drop: the socket dies without a close handshake.
    (c as unknown as { socket: { terminate(): void } }).socket.terminate();
    expect((await back).id).toBe(characterId);
    expect(c.accountId).toBe(accountId);
    expect(c.characterId).toBe(characterId);
    const heard = c.next('chat:message', 5000, (m) => m.message === 'back again');
    c.say('back again');
    expect((await heard).fromId).toBe(characterId);
  });
});

describe('AgentApi', () => {
  it('creates an agent, sets its goal and messages it; the agent connection hears both and reports progress', async () => {
    const { token } = await AgentApi.anonymous(base);
    const api = new AgentApi(base, token);
    const character = await api.createCharacter(`Sdk${Math.floor(Math.random() * 100000)}`);
    const agent = await api.create(character.id, 'Sdk agent');
    expect(agent).toMatchObject({ characterId: character.id, name: 'Sdk agent' });
    const c = track(
      await GameClient.connect({ url: wsUrl, encoding: 'json', token, characterId: character.id }),
    );
    // The goal is told right after connecting (kept by the client as agentGoal).
    for (let i = 0; i < 100 && c.agentGoal === undefined; i++) await new Promise((r) => setTimeout(r, 20));
    expect(c.agentGoal).toEqual({ goal: null, goalsPaused: false });
    const heard = c.next('agent:goal', 5000, (g) => g.goal?.type === 'explore');
    await api.setGoal(agent.agentId, { type: 'explore' });
    expect((await heard).goalsPaused).toBe(false);
    const msg = c.next('agent:message');
    expect(await api.message(agent.agentId, 'go north')).toEqual({ delivered: true });
    expect((await msg).content).toBe('go north');
    expect(c.takeMessages().map((m) => m.content)).toEqual(['go north']);
    expect(c.takeMessages()).toEqual([]);
    c.reportProgress(75, 'halfway');
    let progress: number | undefined;
    for (let i = 0; i < 50 && progress === undefined; i++) {
      await new Promise((r) => setTimeout(r, 20));
      progress = (await api.goal(agent.agentId)).goal?.progress;
    }
    expect(progress).toBe(75);
    expect((await api.state(agent.agentId)).position).toEqual(c.world.position);
    expect((await api.list()).map((a) => a.agentId)).toEqual([agent.agentId]);
    await api.stop(agent.agentId);
    const refused = await api.setGoal(agent.agentId, { type: 'idle' }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AgentApiError);
    expect(refused).toMatchObject({ status: 409, code: 'GOALS_PAUSED' });
  });
});
