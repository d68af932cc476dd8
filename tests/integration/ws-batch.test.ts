import { afterEach, describe, expect, it } from 'vitest';
import { encodeRaw } from '../../net/protocol/index.ts';
import type { WsApp, WsConnection } from '../../net/ws/types.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { TestWsClient } from '../helpers/ws-client.ts';

/** sendBatch: a tick's frames for one connection written in one cork by the network thread, over a real socket. */

let s: TestServer | undefined;
const clients: TestWsClient[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  await s?.stop();
  s = undefined;
});

function recordingApp() {
  const rec = { opened: [] as WsConnection[], closes: [] as number[] };
  const app: WsApp = {
    onOpen: (c) => rec.opened.push(c),
    onMessage: () => {},
    onClose: (_c, code) => rec.closes.push(code),
  };
  return { rec, app };
}

async function open(encoding: 'json' | 'msgpack', maxBuffered?: number) {
  const { rec, app } = recordingApp();
  s = await startTestServer({}, { ws: app, ...(maxBuffered ? { wsMaxBufferedBytes: maxBuffered } : {}) });
  const c = await TestWsClient.connect(s.wsUrl, { encoding });
  clients.push(c);
  await expect.poll(() => rec.opened.length).toBe(1);
  return { rec, c, conn: rec.opened[0] as WsConnection };
}

describe('WsConnection.sendBatch', () => {
  it.each(['json', 'msgpack'] as const)(
    '%s: every frame arrives, in order, as its own message',
    async (encoding) => {
      const { c, conn } = await open(encoding);
      const frames = [
        encodeRaw(encoding, 'player:sync', { n: 1 }),
        encodeRaw(encoding, 'world:update', { tick: 7, entities: [], removed: ['a'] }),
        encodeRaw(encoding, 'chat:message', { message: 'hi' }),
      ];
      conn.sendBatch(frames);
      await expect.poll(() => c.received.length).toBe(3);
      expect(c.received.map((m) => m.event)).toEqual(['player:sync', 'world:update', 'chat:message']);
      expect(c.received.every((m) => m.binary === (encoding === 'msgpack'))).toBe(true);
      expect(c.received[1]?.payload).toEqual({ tick: 7, entities: [], removed: ['a'] });
    },
  );

  it('an empty batch sends nothing; a batch after close is a no-op', async () => {
    const { c, conn } = await open('msgpack');
    conn.sendBatch([]);
    conn.sendBatch([encodeRaw('msgpack', 'chat:message', { message: 'one' })]);
    await expect.poll(() => c.received.length).toBe(1);
    conn.close(1000, 'bye');
    expect(conn.closed).toBe(true);
    conn.sendBatch([encodeRaw('msgpack', 'chat:message', { message: 'two' })]);
    expect(await c.waitClose(5000)).toBe(1000);
    expect(c.received.map((m) => m.payload)).toEqual([{ message: 'one' }]);
  });

  it('a client that stops reading is closed with 1008 once a batch takes its buffer past the bound', async () => {
    const { rec, c, conn } = await open('msgpack', 1024 * 1024);
    c.pauseReading();
    const frame = encodeRaw('msgpack', 'world:update', {
      tick: 1,
      entities: [],
      removed: [],
      pad: 'x'.repeat(60_000),
    });
    let batches = 0;
    // 200 batches of 10 x 60 KB = 120 MB: the bound must trip long before. Each batch gets a turn of
    // the event loop to cross to the network thread, as a tick's frames do.
    while (!conn.closed && batches < 200) {
      conn.sendBatch(Array.from({ length: 10 }, () => frame));
      batches++;
      await new Promise((r) => setTimeout(r, 5));
    }
    expect(conn.closed).toBe(true);
    expect(rec.closes).toEqual([1008]);
    expect(batches).toBeLessThan(200);
    c.resumeReading();
    expect(await c.waitClose(10_000)).toBeGreaterThan(0);
  });
});
