import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NPCS } from '../../ecs/features/npcs/index.ts';
import { type ServerEventName, serverEvents } from '../../net/protocol/server-events.ts';
import type { WorldServer } from '../../src/world-server.ts';
import { type DefaultWorld, startDefaultWorld } from '../helpers/default-world.ts';
import { TestWsClient, type WsMessage } from '../helpers/ws-client.ts';

/**
 * Over real sockets, the default world: a shop opened at its keeper, a buy and a sale shown only once
 * committed, the shop closed; a conversation that starts a quest (`dialogue:node`, `quest:update`),
 * `quest:list`, and `player:sync.questPoints`. Every payload is checked against its wire schema.
 */

const TICK_MS = 50;
const ADMIN_CODE = 'test-admin-code';
let world: DefaultWorld;
let srv: WorldServer;
let wsUrl: string;
const clients: TestWsClient[] = [];

beforeAll(async () => {
  world = await startDefaultWorld('shops-wire', { TICK_MS: String(TICK_MS) });
  srv = world.srv;
  wsUrl = world.wsUrl;
});

afterAll(async () => {
  for (const c of clients) c.close();
  await world?.stop();
});

/** The next `event` (schema-checked) that satisfies `pred`; earlier ones are skipped. */
// biome-ignore lint/suspicious/noExplicitAny: the test reads payloads freely
async function until(c: TestWsClient, event: ServerEventName, pred: (p: any) => boolean = () => true) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const m: WsMessage = await c.next(event, Math.max(1, deadline - Date.now()));
    expect(serverEvents[event].parse(m.payload)).toEqual(m.payload);
    if (pred(m.payload)) return m.payload;
  }
}

async function command(c: TestWsClient, text: string): Promise<string> {
  c.send('player:chat', { message: text });
  return (await until(c, 'chat:message', (p) => p.channel === 'system')).message as string;
}

function npcWireId(npcId: string): string {
  for (const npc of srv.runtime.world.get(NPCS).byEid.values()) {
    if (npc.npcId === npcId) return srv.runtime.world.wireIds[npc.eid] as string;
  }
  throw new Error(`${npcId} is not in the world`);
}

describe('shops, dialogue and quests over real sockets', () => {
  it('buy and sell at a shop, then start a quest by talking', async () => {
    const c = await TestWsClient.connect(wsUrl, { encoding: 'json' });
    clients.push(c);
    c.send('authenticate', { name: 'Shopper' });
    expect((await c.next('authResult', 15_000)).payload.success).toBe(true);
    const first = await until(c, 'player:sync');
    expect(first.questPoints).toBe(0);
    expect(await command(c, `/admin ${ADMIN_CODE}`)).not.toMatch(/only|forbidden/i);
    expect(await command(c, '/tp 605 612')).toBe('Teleported to 605, 612.');
    expect(await command(c, '/coins 100')).toMatch(/You now have/);
    const coins = (await until(c, 'player:sync', (p) => p.coins >= 100)).coins as number;

    c.send('player:action', { action: 'shop', targetId: npcWireId('trader_odalys') });
    const open = await until(c, 'shop:open');
    expect(open).toMatchObject({ shopId: 'emberfold_general', buyback: true, sellRate: 0.5 });
    expect(open.items).toContainEqual({ itemId: 'barley_loaf', price: 12, stock: 20 });

    c.send('shop:buy', { shopId: 'emberfold_general', itemId: 'barley_loaf', quantity: 2 });
    const bought = await until(c, 'player:sync', (p) => p.coins === coins - 24);
    const update = await until(c, 'shop:update');
    expect(update.items).toContainEqual({ itemId: 'barley_loaf', price: 12, stock: 18 });
    const slot = (bought.inventory as ({ itemId: string } | null)[]).findIndex(
      (s) => s?.itemId === 'barley_loaf',
    );
    c.send('shop:sell', { shopId: 'emberfold_general', slot, quantity: 1 });
    await until(c, 'player:sync', (p) => p.coins === coins - 24 + 5);
    c.send('shop:buy', { shopId: 'emberfold_general', itemId: 'iron_sword', quantity: 1 });
    expect(await until(c, 'error')).toMatchObject({ code: 'NOT_FOUND', event: 'shop:buy' });
    c.send('shop:close', { shopId: 'emberfold_general' });
    expect(await until(c, 'shop:closed')).toEqual({ shopId: 'emberfold_general' });

    expect(await command(c, '/tp 603 590')).toBe('Teleported to 603, 590.');
    c.send('player:action', { action: 'talk', targetId: npcWireId('warden_corvin') });
    const greeting = await until(c, 'dialogue:node');
    expect(greeting).toMatchObject({ npcId: 'warden_corvin', nodeId: 'greeting' });
    c.send('dialogue:choose', { optionId: 0 });
    expect(await until(c, 'dialogue:node')).toMatchObject({ nodeId: 'quest_offer' });
    c.send('dialogue:choose', { optionId: '0' });
    expect(await until(c, 'quest:update', (p) => p.stageId === 'hunt')).toEqual({
      questId: 'boar_trouble',
      status: 'in_progress',
      stageId: 'hunt',
      progress: 0,
      count: 5,
    });
    expect(await until(c, 'dialogue:node')).toMatchObject({ nodeId: 'accepted', options: [] });
    c.send('dialogue:close', {});
    c.send('quest:list', {});
    const list = await until(c, 'quest:list');
    expect(list.questPoints).toBe(0);
    expect(list.quests.map((q: { questId: string; status: string }) => [q.questId, q.status])).toEqual([
      ['boar_trouble', 'in_progress'],
      ['first_catch', 'not_started'],
      ['forge_apprentice', 'not_started'],
    ]);
    // Walking away from a conversation ends it from the server's side.
    c.send('player:action', { action: 'talk', targetId: npcWireId('warden_corvin') });
    await until(c, 'dialogue:node', (p) => p.nodeId === 'quest_progress');
    c.send('player:move', { x: 596, z: 590 });
    expect(await until(c, 'dialogue:close')).toEqual({});
  });
});
