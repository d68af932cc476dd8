import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { GameClient } from '../../sdk/src/index.ts';

/**
 * The SDK knows its own character from the moment authResult is read: the entering tick's world:update
 * (which carries the character itself) may arrive in the same read, before connect() resumes, and must
 * not add the character to the entities in view. A stand-in server writes authResult, world:update and
 * player:sync in one socket write.
 */

let server: WebSocketServer | undefined;
afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

const me = 'char-me';
const stack = null;
const sync = {
  id: me,
  name: 'Me',
  position: { x: 10, y: 0, z: 10 },
  health: 10,
  maxHealth: 10,
  combatLevel: 3,
  coins: 0,
  questPoints: 0,
  skills: {},
  inventory: Array.from({ length: 28 }, () => stack),
  equipment: {},
  voice: { enabled: false },
};

describe('GameClient', () => {
  it('leaves its own character out of the view even when the entering tick comes in the read of authResult', async () => {
    server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    server.on('connection', (ws) => {
      ws.on('message', () => {
        const socket = (ws as unknown as { _socket: { cork(): void; uncork(): void } })._socket;
        socket.cork();
        const frames: [string, unknown][] = [
          [
            'authResult',
            { success: true, accountId: 'acc', characterId: me, anonymous: true, sessionToken: 't' },
          ],
          [
            'world:update',
            {
              tick: 1,
              entities: [
                { id: me, type: 'player', x: 10, z: 10 },
                { id: 'npc-1', type: 'npc', x: 12, z: 10 },
              ],
              removed: [],
            },
          ],
          ['player:sync', sync],
        ];
        for (const f of frames) ws.send(JSON.stringify(f));
        process.nextTick(() => socket.uncork());
      });
    });
    await new Promise((r) => server?.once('listening', r));
    const { port } = server.address() as AddressInfo;
    const c = await GameClient.connect({ url: `ws://127.0.0.1:${port}`, encoding: 'json' });
    try {
      expect(c.world.entities.has('npc-1')).toBe(true);
      expect(c.world.entities.has(me)).toBe(false);
      expect(c.world.position).toEqual({ x: 10, z: 10 });
    } finally {
      await c.close();
    }
  });
});
