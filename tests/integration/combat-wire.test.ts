import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverEvents } from '../../net/protocol/server-events.ts';
import type { WorldServer } from '../../src/world-server.ts';
import { type DefaultWorld, startDefaultWorld } from '../helpers/default-world.ts';
import { TestWsClient, type WsMessage } from '../helpers/ws-client.ts';

/**
 * Combat over real sockets (default content, PGlite): prayer:state on entering, an attack on a spawned
 * rat gives combat:hit with its style and the attacker's targetId in world:update, its death gives
 * entity:death to both players and loot that only the killer sees.
 */

const TICK_MS = 50;
let world: DefaultWorld;
let _srv: WorldServer;
let wsUrl: string;
const clients: TestWsClient[] = [];

beforeAll(async () => {
  world = await startDefaultWorld('combat-wire', { TICK_MS: String(TICK_MS) });
  _srv = world.srv;
  wsUrl = world.wsUrl;
});

afterAll(async () => {
  for (const c of clients) c.close();
  await world?.stop();
});

async function enter(name: string, encoding: 'json' | 'msgpack') {
  const client = await TestWsClient.connect(wsUrl, { encoding });
  clients.push(client);
  client.send('authenticate', { name });
  const auth = await client.next('authResult', 15_000);
  expect(auth.payload.success).toBe(true);
  return { client, id: auth.payload.characterId as string };
}

/** The next message of an event (validated against the protocol) satisfying `pred`. */
async function next(c: TestWsClient, event: string, pred: (m: WsMessage) => boolean = () => true) {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const m = await c.next(event, Math.max(1, deadline - Date.now()));
    const schema = serverEvents[event as keyof typeof serverEvents];
    expect(schema.parse(m.payload)).toEqual(m.payload);
    if (pred(m)) return m;
  }
}

type Entity = { id: string; type: string; targetId?: string | null; itemId?: string };
const entities = (m: WsMessage) => m.payload.entities as Entity[];

describe('combat over real sockets', () => {
  it('hits, targetId, death and killer-only loot reach the clients in the protocol shapes', async () => {
    const fighter = await enter('Fighter', 'msgpack');
    const prayer = await next(fighter.client, 'prayer:state');
    expect(prayer.payload).toEqual({ points: 1, maxPoints: 1, active: [] });
    const watcher = await enter('Watcher', 'json');
    const say = async (message: string) => {
      fighter.client.send('player:chat', { message });
      return (await next(fighter.client, 'chat:message', (m) => m.payload.channel === 'system')).payload
        .message as string;
    };
    expect(await say('/admin test-admin-code')).toMatch(/enabled/);
    await say('/level attack 60');
    await say('/level strength 60');
    const spawned = await say('/spawn marsh_rat');
    const ratId = /\((npc-\d+)\)/.exec(spawned)?.[1] as string;
    expect(ratId).toBeDefined();
    fighter.client.send('player:action', { action: 'attack', targetId: ratId });
    const hit = await next(fighter.client, 'combat:hit', (m) => m.payload.attackerId === fighter.id);
    expect(hit.payload).toMatchObject({ targetId: ratId, style: 'melee' });
    await next(fighter.client, 'world:update', (m) =>
      entities(m).some((e) => e.id === fighter.id && e.targetId === ratId),
    );
    const death = await next(watcher.client, 'entity:death', (m) => m.payload.id === ratId);
    expect(death.payload.killerId).toBe(fighter.id);
    await next(fighter.client, 'world:update', (m) =>
      entities(m).some((e) => e.type === 'item' && e.itemId === 'bones'),
    );
    await new Promise((r) => setTimeout(r, TICK_MS * 5));
    for (const m of watcher.client.received.filter((x) => x.event === 'world:update'))
      expect(entities(m).some((e) => e.type === 'item' && e.itemId === 'bones')).toBe(false);
  });
});
