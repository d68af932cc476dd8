import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESOURCES } from '../../ecs/features/resources/index.ts';
import { createLogger } from '../../lib/logger.ts';
import { type ServerEventName, serverEvents } from '../../net/protocol/server-events.ts';
import { REPO_ROOT } from '../../src/server.ts';
import { startWorldServer, type WorldServer } from '../../src/world-server.ts';
import { testConfig } from '../helpers/server.ts';
import { TestWsClient, type WsMessage } from '../helpers/ws-client.ts';

/**
 * Over real sockets, the default world: a new character walks to a birch tree with `player:action
 * gather`, chops logs (`gathering:start`, `skill:xp`, the logs in `player:sync`), lights them with its
 * tinderbox (`inventory:use` item on item: `processing:start`, `processing:stop`, a `fire` station in
 * `world:update`), and a malformed `skill:make` is BAD_MESSAGE. Every payload matches the protocol.
 */

const TICK_MS = 50;
let worldDir: string;
let srv: WorldServer;
let client: TestWsClient;

beforeAll(async () => {
  worldDir = mkdtempSync(path.join(os.tmpdir(), 'skills-wire-'));
  const config = testConfig({
    WORLD: worldDir,
    TICK_MS: String(TICK_MS),
    JWT_SECRET: 'integration-test-secret-0123456789-abcdefghij',
    DISABLE_RATE_LIMIT: 'true',
  });
  srv = await startWorldServer(config, createLogger(config), {
    manifestsDir: path.join(REPO_ROOT, 'world', 'assets', 'manifests'),
    publicDir: '/nonexistent/public',
  });
});

afterAll(async () => {
  client?.close();
  await srv?.stop();
  rmSync(worldDir, { recursive: true, force: true });
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
