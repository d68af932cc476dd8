import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverEvents } from '../../net/protocol/server-events.ts';
import type { WorldServer } from '../../src/world-server.ts';
import { type DefaultWorld, startDefaultWorld } from '../helpers/default-world.ts';
import { TestWsClient, type WsMessage } from '../helpers/ws-client.ts';

/**
 * Over real sockets: the real server (uWS, identity sessions, PGlite persistence, default content) with
 * the world ticking fast. Two players near each other see each other move; a player far away is told
 * that they left its view and then hears nothing about them.
 */

const TICK_MS = 50;
let world: DefaultWorld;
let srv: WorldServer;
let wsUrl: string;
const clients: TestWsClient[] = [];

beforeAll(async () => {
  world = await startDefaultWorld('see-each-other', { TICK_MS: String(TICK_MS) });
  srv = world.srv;
  wsUrl = world.wsUrl;
});

afterAll(async () => {
  for (const c of clients) c.close();
  await world?.stop();
});

interface Player {
  client: TestWsClient;
  id: string;
}

async function enter(name: string): Promise<Player> {
  const client = await TestWsClient.connect(wsUrl, { encoding: name.length % 2 === 0 ? 'json' : 'msgpack' });
  clients.push(client);
  client.send('authenticate', { name });
  const auth = await client.next('authResult', 15_000);
  expect(auth.payload.success).toBe(true);
  const sync = await client.next('player:sync', 5000);
  expect(serverEvents['player:sync'].parse(sync.payload)).toEqual(sync.payload);
  return { client, id: auth.payload.characterId as string };
}

/** The next world:update (validated against the protocol) satisfying `pred`. */
async function update(p: Player, pred: (m: WsMessage) => boolean, timeoutMs = 10_000): Promise<WsMessage> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const m = await p.client.next('world:update', Math.max(1, deadline - Date.now()));
    expect(serverEvents['world:update'].parse(m.payload)).toEqual(m.payload);
    if (pred(m)) return m;
  }
}

const entityOf = (m: WsMessage, id: string) =>
  (m.payload.entities as { id: string; x: number; z: number }[]).find((e) => e.id === id);

describe('two players over real sockets', () => {
  it('see each other move, and a far player sees nothing of them', async () => {
    const alice = await enter('Alice');
    const bob = await enter('Bobby');
    const carol = await enter('Carol');
    // All enter at the spawn: each learns about the others.
    await update(bob, (m) => entityOf(m, alice.id) !== undefined);
    await update(alice, (m) => entityOf(m, carol.id) !== undefined);
    const start = srv.runtime.liveCharacter(alice.id)?.position as { x: number; z: number };

    // Carol runs far away (beyond view + hysteresis): Alice and Bob are told she left their view.
    const far = srv.runtime.world.content.map;
    let target = { x: start.x + 60, z: start.z };
    for (const dx of [60, -60]) {
      for (const dz of [0, 60, -60]) {
        if (far.isWalkable(start.x + dx, start.z + dz)) target = { x: start.x + dx, z: start.z + dz };
      }
    }
    carol.client.send('player:move', { x: target.x, z: target.z, run: true });
    await update(alice, (m) => (m.payload.removed as string[]).includes(carol.id), 15_000);
    await update(carol, (m) => (m.payload.removed as string[]).includes(alice.id), 15_000);
    const carolAt = srv.runtime.liveCharacter(carol.id)?.position as { x: number; z: number };
    expect(Math.max(Math.abs(carolAt.x - start.x), Math.abs(carolAt.z - start.z))).toBeGreaterThan(
      srv.runtime.world.viewDistance + 2,
    );
    await new Promise((r) => setTimeout(r, TICK_MS * 40)); // let Carol arrive
    const carolSeenBefore = carol.client.received.length;

    // Alice walks 3 tiles: Bob sees her on the new tile; so does Alice herself.
    const dest = { x: start.x + (far.isWalkable(start.x + 3, start.z) ? 3 : -3), z: start.z };
    alice.client.send('player:move', { x: dest.x, z: dest.z });
    const seen = await update(bob, (m) => {
      const e = entityOf(m, alice.id);
      return e !== undefined && e.x === dest.x && e.z === dest.z;
    });
    expect(entityOf(seen, alice.id)).toMatchObject({ type: 'player', x: dest.x, z: dest.z });
    await update(alice, (m) => entityOf(m, alice.id)?.x === dest.x);

    // Carol, far away, heard nothing about Alice or Bob since they left her view.
    await new Promise((r) => setTimeout(r, TICK_MS * 5));
    const later = carol.client.received.slice(carolSeenBefore);
    for (const m of later) {
      expect(JSON.stringify(m.payload)).not.toContain(alice.id);
      expect(JSON.stringify(m.payload)).not.toContain(bob.id);
    }
  });
});
