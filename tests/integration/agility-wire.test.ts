import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ServerEventName, serverEvents } from '../../net/protocol/server-events.ts';
import { type DefaultWorld, startDefaultWorld } from '../helpers/default-world.ts';
import { TestWsClient, type WsMessage } from '../helpers/ws-client.ts';

/**
 * Over a real socket, the default world: a new character walks west of the spawn until the training
 * course's log balance is in view (a `station` of type `obstacle`, named on the wire), crosses it with
 * `player:action cross` (`agility:start`, `agility:end`, agility `skill:xp`). Every payload matches
 * the protocol. (What a crossing refuses is the scenario test's: over a socket it would race the tick.)
 */

let world: DefaultWorld;
let client: TestWsClient;

beforeAll(async () => {
  world = await startDefaultWorld('agility-wire', { TICK_MS: '50' });
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

interface Seen {
  id: string;
  type: string;
  stationType?: string;
  name?: string;
}

describe('agility over a real socket', () => {
  it('crosses the log balance of the training course', async () => {
    client = await TestWsClient.connect(world.wsUrl, { encoding: 'json' });
    client.send('authenticate', { name: 'Nimble' });
    expect((await next('authResult')).payload.success).toBe(true);
    await next('player:sync');

    client.send('player:move', { x: 576, z: 596 });
    let log: Seen | undefined;
    while (!log) {
      const m = await next('world:update', 30_000);
      log = (m.payload.entities as Seen[]).find(
        (e) => e.type === 'station' && e.stationType === 'obstacle' && e.name === 'Log balance',
      );
    }

    // The log may throw a beginner off (a fall is `success: false`, no xp): try until it holds.
    for (let attempt = 0; attempt < 20; attempt++) {
      client.send('player:action', { action: 'cross', targetId: log.id });
      const start = await next('agility:start', 30_000);
      expect(start.payload).toEqual({
        obstacleId: 'emberfold_log_balance',
        name: 'Log balance',
        ticks: 4,
        x: 570,
        z: 596,
      });
      const end = await next('agility:end', 30_000);
      if (!end.payload.success) continue;
      expect(end.payload).toEqual({ obstacleId: 'emberfold_log_balance', success: true, damage: 0 });
      expect((await next('skill:xp')).payload).toMatchObject({ skill: 'agility', gained: 7 });
      return;
    }
    throw new Error('never crossed the log');
  });
});
