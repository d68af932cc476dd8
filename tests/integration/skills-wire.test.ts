import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESOURCES } from '../../ecs/features/resources/index.ts';
import { type ServerEventName, serverEvents } from '../../net/protocol/server-events.ts';
import type { WorldServer } from '../../src/world-server.ts';
import { type DefaultWorld, startDefaultWorld } from '../helpers/default-world.ts';
import { TestWsClient, type WsMessage } from '../helpers/ws-client.ts';

/**
 * Over real sockets, the default world: a new character walks until a birch tree is in view, then to it
 * with `player:action gather`, chops logs (`gathering:start`, `skill:xp`, the logs in `player:sync`), lights them with its
 * tinderbox (`inventory:use` item on item: `processing:start`, `processing:stop`, a `fire` station in
 * `world:update`), and a malformed `skill:make` is BAD_MESSAGE. Every payload matches the protocol.
 */

const TICK_MS = 50;
let world: DefaultWorld;
let srv: WorldServer;
let client: TestWsClient;

beforeAll(async () => {
  world = await startDefaultWorld('skills-wire', { TICK_MS: String(TICK_MS) });
  srv = world.srv;
});

afterAll(async () => {
  client?.close();
  await world?.stop();
});

async function next(event: ServerEventName, timeoutMs = 15_000): Promise<WsMessage> {
  const m = await client.next(event, timeoutMs);
  expect(serverEvents[event].parse(m.payload)).toEqual(m.payload);
  return m;
}

describe('skills over real sockets', () => {
  it('gather logs from a tree, then light them', async () => {
    client = await TestWsClient.connect(`ws://127.0.0.1:${srv.port}/ws`, { encoding: 'json' });
    client.send('authenticate', { name: 'Woody' });
    expect((await next('authResult')).payload.success).toBe(true);
    let sync = await next('player:sync');

    client.send('skill:make', { recipeId: 'birch_logs', quantity: 29 });
    expect((await next('error')).payload).toMatchObject({ code: 'BAD_MESSAGE', event: 'skill:make' });

    const world = srv.runtime.world;
    const tree = [...world.get(RESOURCES).byEid.values()].find((r) => r.resourceId === 'tree_birch');
    const treeId = world.wireIds[tree?.eid as number] as string;
    // The starter town's birches stand 30 tiles from the spawn, out of view (an action on what the player
    // does not see is NOT_FOUND): walk toward it until the tree enters view.
    const tx = world.c.Position.x[tree?.eid as number] as number;
    const tz = world.c.Position.z[tree?.eid as number] as number;
    let near: [number, number] | undefined;
    for (let d = 2; d < 8 && near === undefined; d++)
      for (const [x, z] of [
        [tx + d, tz],
        [tx, tz - d],
        [tx + d, tz - d],
        [tx - d, tz],
        [tx, tz + d],
      ] as const)
        if (near === undefined && world.content.map.isWalkable(x, z)) near = [x, z];
    expect(near).toBeDefined();
    client.send('player:move', { x: near?.[0], z: near?.[1] });
    for (;;) {
      const m = await next('world:update', 30_000);
      if ((m.payload.entities as { id: string }[]).some((e) => e.id === treeId)) break;
    }
    client.send('player:action', { action: 'gather', targetId: treeId });
    expect((await next('gathering:start', 30_000)).payload).toEqual({
      resourceId: 'tree_birch',
      skill: 'woodcutting',
    });
    const xp = await next('skill:xp', 30_000);
    expect(xp.payload).toMatchObject({ skill: 'woodcutting', gained: 25, level: 1 });

    const inv = () => sync.payload.inventory as ({ itemId: string } | null)[];
    while (!inv().some((s) => s?.itemId === 'birch_logs')) sync = await next('player:sync');
    const logs = inv().findIndex((s) => s?.itemId === 'birch_logs');
    const tinderbox = inv().findIndex((s) => s?.itemId === 'tinderbox');

    client.send('inventory:use', { slot: tinderbox, targetSlot: logs });
    await next('gathering:stop');
    expect((await next('processing:start')).payload).toEqual({ recipeId: 'birch_logs', quantity: 1 });
    expect((await next('processing:stop')).payload).toEqual({
      recipeId: 'birch_logs',
      made: 1,
      reason: 'done',
    });
    for (;;) {
      const m = await next('world:update');
      const fire = (m.payload.entities as { type: string; stationType?: string }[]).find(
        (e) => e.type === 'station' && e.stationType === 'fire',
      );
      if (fire) break;
    }
  });
});
