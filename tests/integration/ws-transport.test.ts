import { pack } from 'msgpackr';
import { afterEach, describe, expect, it } from 'vitest';
import type { ClientMessage } from '../../net/protocol/index.ts';
import { encodeRaw, serverEvents } from '../../net/protocol/index.ts';
import type { WsApp, WsConnection } from '../../net/ws/types.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { TestWsClient } from '../helpers/ws-client.ts';

let s: TestServer | undefined;
const clients: TestWsClient[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  await s?.stop();
  s = undefined;
});

async function connect(opts: Parameters<typeof TestWsClient.connect>[1] = {}): Promise<TestWsClient> {
  const c = await TestWsClient.connect(s!.wsUrl, opts);
  clients.push(c);
  return c;
}

/** A WsApp that records what the transport hands it. */
function recordingApp() {
  const rec = { opened: [] as WsConnection[], messages: [] as ClientMessage[], closes: [] as number[] };
  const app: WsApp = {
    onOpen: (c) => rec.opened.push(c),
    onMessage: (_c, m) => rec.messages.push(m),
    onClose: (_c, code) => rec.closes.push(code),
  };
  return { rec, app };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('framing and the unauthenticated app (contract §1.1, §1.2)', () => {
  it.each(['json', 'msgpack'] as const)(
    '%s: an unauthenticated player:move gets NOT_AUTHENTICATED in that encoding',
    async (encoding) => {
      s = await startTestServer();
      const c = await connect({ encoding });
      c.send('player:move', { x: 12, z: 40 });
      const m = await c.next('error');
      expect(m.binary).toBe(encoding === 'msgpack');
      expect(serverEvents.error.parse(m.payload)).toEqual({
        code: 'NOT_AUTHENTICATED',
        message: expect.any(String),
        event: 'player:move',
      });
    },
  );

  it('msgpack is the default encoding, and either frame kind is accepted from any client', async () => {
    s = await startTestServer();
    const c = await connect();
    c.sendRaw(JSON.stringify(['player:chat', { message: 'hi' }]));
    const m = await c.next('error');
    expect(m.binary).toBe(true);
    expect(m.payload).toMatchObject({ code: 'NOT_AUTHENTICATED', event: 'player:chat' });
  });

  it('authenticate is refused with authResult and close 4001 until the identity work lands', async () => {
    s = await startTestServer();
    const c = await connect({ encoding: 'json' });
    c.send('authenticate', { authToken: 'whatever' });
    expect((await c.next('authResult')).payload).toEqual({
      success: false,
      error: 'this test server accepts no login',
    });
    expect(await c.waitClose()).toBe(4001);
  });

  it('a socket that never authenticates is closed with 4001 after the timeout', async () => {
    s = await startTestServer({ WS_AUTH_TIMEOUT_SECONDS: '1' });
    const c = await connect();
    expect(await c.waitClose(4000)).toBe(4001);
  });

  it('an unknown encoding is refused at the upgrade', async () => {
    s = await startTestServer();
    await expect(TestWsClient.connect(s.wsUrl, { query: { encoding: 'xml' } })).rejects.toThrow(/400/);
  });

  it.each([
    ['garbage text', 'json', 'not json at all', null],
    ['garbage binary', 'msgpack', new Uint8Array([0xc1, 0xc1, 0xc1]), null],
    ['an unknown event', 'json', JSON.stringify(['player:fly', {}]), 'player:fly'],
    ['an unknown event in msgpack', 'msgpack', pack(['no:such', { x: 1 }]), 'no:such'],
    ['a payload failing its schema', 'msgpack', pack(['player:move', { x: 'north' }]), 'player:move'],
  ] as const)('%s gets BAD_MESSAGE and the socket stays open', async (_label, encoding, frame, event) => {
    const { rec, app } = recordingApp();
    s = await startTestServer({}, { ws: app });
    const c = await connect({ encoding });
    c.sendRaw(frame);
    expect((await c.next('error')).payload).toEqual({
      code: 'BAD_MESSAGE',
      message: expect.any(String),
      event,
    });
    c.send('player:move', { x: 1, z: 2 });
    await expect.poll(() => rec.messages).toEqual([{ event: 'player:move', payload: { x: 1, z: 2 } }]);
    expect(c.closeCode).toBeUndefined();
  });

  it('a frame over 64 KiB closes the connection with 1009; 64 KiB exactly is decoded', async () => {
    const { rec, app } = recordingApp();
    s = await startTestServer({}, { ws: app });
    const ok = await connect({ encoding: 'json' });
    // Exactly 64 KiB: reaches the decoder (an over-long chat message fails its schema: BAD_MESSAGE).
    const frame = JSON.stringify(['player:chat', { message: 'x'.repeat(64 * 1024 - 40) }]).padEnd(
      64 * 1024,
      ' ',
    );
    expect(Buffer.byteLength(frame)).toBe(64 * 1024);
    ok.sendRaw(frame);
    expect((await ok.next('error')).payload).toMatchObject({ code: 'BAD_MESSAGE', event: 'player:chat' });
    expect(ok.closeCode).toBeUndefined();
    const big = await connect({ encoding: 'json' });
    big.sendRaw(JSON.stringify(['player:chat', { message: 'x'.repeat(70_000) }]));
    expect(await big.waitClose()).toBe(1009);
    // The app hears of the close in the network thread's next batch, which may follow the client's close.
    await expect.poll(() => rec.closes, { timeout: 5000 }).toEqual([1009]);
  });

  it('the app sees the client address and the query string', async () => {
    const { rec, app } = recordingApp();
    s = await startTestServer({ TRUST_PROXY: 'true' }, { ws: app });
    await connect({ query: { characterId: 'c-1' } });
    await connect({ headers: { 'x-forwarded-for': '203.0.113.9' } });
    await expect.poll(() => rec.opened.length).toBe(2);
    expect(rec.opened[0]!.ip).toBe('127.0.0.1');
    expect(rec.opened[0]!.query.get('characterId')).toBe('c-1');
    expect(rec.opened[0]!.encoding).toBe('msgpack');
    expect(rec.opened[1]!.ip).toBe('203.0.113.9');
  });

  it('stop() closes every socket with 1001', async () => {
    s = await startTestServer();
    const a = await connect();
    const b = await connect({ encoding: 'json' });
    await s.stop();
    expect(await a.waitClose()).toBe(1001);
    expect(await b.waitClose()).toBe(1001);
  });
});

describe('per-connection rate limit (contract §1.3)', () => {
  const burst = (c: TestWsClient, n: number) => {
    for (let i = 0; i < n; i++) c.send('player:move', { x: i, z: 0 });
  };

  it('over 60 a second: extra messages are dropped, with one RATE_LIMITED per second', async () => {
    const { rec, app } = recordingApp();
    s = await startTestServer({}, { ws: app });
    const c = await connect({ encoding: 'json' });
    // 200 at once: however they straddle a second boundary, one second sees over 60.
    burst(c, 200);
    await c.next('error');
    await sleep(300);
    const limited = c.received.filter((m) => m.event === 'error' && m.payload.code === 'RATE_LIMITED');
    expect(limited.length).toBeGreaterThanOrEqual(1);
    expect(limited.length).toBeLessThanOrEqual(2);
    expect(rec.messages.length).toBeGreaterThanOrEqual(60);
    expect(rec.messages.length).toBeLessThanOrEqual(120);
    expect(c.closeCode).toBeUndefined();
  });

  it('flooding at over twice the limit for 3 seconds closes with 4029', async () => {
    s = await startTestServer();
    const c = await connect();
    // ~600 a second: well over twice the limit even if the timer runs late on a busy machine.
    const firstSent = performance.now();
    burst(c, 60);
    const timer = setInterval(() => c.socket.readyState === c.socket.OPEN && burst(c, 60), 100);
    try {
      expect(await c.waitClose(8000)).toBe(4029);
    } finally {
      clearInterval(timer);
    }
    // A lower bound only (the server can only see the flood after it was sent): never before 3 s.
    expect(performance.now() - firstSent).toBeGreaterThanOrEqual(3000);
    expect(c.received.some((m) => m.payload.code === 'RATE_LIMITED')).toBe(true);
  });

  it('DISABLE_RATE_LIMIT=true outside production lets everything through', async () => {
    const { rec, app } = recordingApp();
    s = await startTestServer({ DISABLE_RATE_LIMIT: 'true' }, { ws: app });
    const c = await connect();
    burst(c, 300);
    await expect.poll(() => rec.messages.length).toBe(300);
    expect(c.received.some((m) => m.payload.code === 'RATE_LIMITED')).toBe(false);
  });
});

describe('backpressure', () => {
  it('a client that stops reading is closed once its send buffer passes the bound', async () => {
    const { rec, app } = recordingApp();
    s = await startTestServer({}, { ws: app, wsMaxBufferedBytes: 1024 * 1024 });
    const c = await connect();
    await expect.poll(() => rec.opened.length).toBe(1);
    const conn = rec.opened[0]!;
    c.pauseReading();
    const frame = encodeRaw('msgpack', 'world:update', {
      tick: 1,
      entities: [],
      removed: [],
      pad: 'x'.repeat(60 * 1024),
    });
    let sent = 0;
    // 2,000 frames = 120 MB: far beyond kernel buffers; the bound must trip long before. Every 10 frames
    // get a turn of the event loop to cross to the network thread.
    while (!conn.closed && sent < 2000) {
      conn.sendRaw(frame);
      sent++;
      if (sent % 10 === 0) await new Promise((r) => setTimeout(r, 5));
    }
    expect(conn.closed).toBe(true);
    await expect.poll(() => rec.closes, { timeout: 5000 }).toEqual([1008]);
    expect(sent).toBeLessThan(2000);
    c.resumeReading();
    expect(await c.waitClose(10_000)).toBeGreaterThan(0);
    // Sending after the close is a harmless no-op.
    conn.sendRaw(frame);
  });
});
