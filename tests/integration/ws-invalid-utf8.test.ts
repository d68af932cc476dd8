import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../lib/logger.ts';
import { createServerMetrics, metricsText } from '../../lib/metrics.ts';
import type { WsApp } from '../../net/ws/types.ts';
import { startTestServer, type TestServer, testConfig } from '../helpers/server.ts';
import { TestWsClient } from '../helpers/ws-client.ts';

/**
 * Issue 26, item 5: a text frame that is not valid UTF-8. uWebSockets checks every text frame before the
 * server sees it and fails the connection on a bad one (RFC 6455 §8.1: "MUST _Fail the WebSocket
 * Connection_"), closing TCP without the close frame the RFC recommends (1007): there is no hook to send
 * one, nor to answer BAD_MESSAGE instead. So the client sees 1006. The server logs it and counts it
 * (game_ws_messages_in_total{result="invalid_utf8"}); the app hears a 1006 close; nothing else is
 * affected. Frames are built by hand on a raw socket (the `ws` client would not send such a frame).
 */

const logLines: string[] = [];
const closes: number[] = [];
const metrics = createServerMetrics();
let s: TestServer;

beforeAll(async () => {
  const capture = new Writable({
    write(chunk, _enc, cb) {
      logLines.push(String(chunk));
      cb();
    },
  });
  const app: WsApp = {
    onOpen: () => {},
    onMessage: (c, m) => c.send('error', { code: 'NOT_AUTHENTICATED', message: 'x', event: m.event }),
    onClose: (_c, code) => closes.push(code),
  };
  s = await startTestServer(
    {},
    { ws: app, metrics, logger: createLogger({ ...testConfig(), logLevel: 'info' }, capture) },
  );
});
afterAll(async () => {
  await s?.stop();
});

/** One masked client frame (FIN set) with a payload under 126 bytes. */
function frame(opcode: number, payload: Buffer): Buffer {
  const mask = randomBytes(4);
  const masked = Buffer.from(payload.map((b, i) => b ^ (mask[i % 4] as number)));
  return Buffer.concat([Buffer.from([0x80 | opcode, 0x80 | payload.length]), mask, masked]);
}

/** A raw WebSocket after the upgrade: what the server sent after the 101, and whether it closed. */
async function rawSocket(): Promise<{ socket: net.Socket; after: () => Buffer; closed: Promise<void> }> {
  const socket = net.connect(s.port, '127.0.0.1');
  let buf = Buffer.alloc(0);
  let upgraded = -1;
  const closed = new Promise<void>((r) => {
    socket.on('close', () => r());
  });
  socket.on('error', () => {});
  await new Promise<void>((resolve) => {
    socket.on('data', (d) => {
      buf = Buffer.concat([buf, d]);
      if (upgraded < 0 && buf.includes('\r\n\r\n')) {
        upgraded = buf.indexOf('\r\n\r\n') + 4;
        resolve();
      }
    });
    socket.write(
      'GET /ws?encoding=json HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n' +
        `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
    );
  });
  expect(buf.subarray(0, 12).toString()).toBe('HTTP/1.1 101');
  return { socket, after: () => buf.subarray(upgraded), closed };
}

const invalidUtf8 = async () =>
  Number(
    /game_ws_messages_in_total\{result="invalid_utf8"\} (\d+)/.exec(
      await metricsText(metrics.registry),
    )?.[1] ?? 0,
  );

describe('a text frame that is not valid UTF-8', () => {
  it('fails that connection (1006, no close frame), logged and counted; the server and other sockets go on', async () => {
    const bystander = await TestWsClient.connect(s.wsUrl, { encoding: 'json' });
    const valid = await rawSocket();
    valid.socket.write(frame(1, Buffer.from('["player:chat",{"message":"é ok"}]')));
    await expect.poll(() => valid.after().toString()).toContain('NOT_AUTHENTICATED');

    const bad = await rawSocket();
    // `["` + 0xff 0xfe (never valid in UTF-8) + `"]`
    bad.socket.write(frame(1, Buffer.from([0x5b, 0x22, 0xff, 0xfe, 0x22, 0x5d])));
    await bad.closed;
    // Nothing came back after the upgrade: no close frame (opcode 0x8), no error event.
    expect(bad.after()).toEqual(Buffer.alloc(0));
    await expect.poll(invalidUtf8).toBe(1);
    await expect.poll(() => closes).toContain(1006);
    const lines = logLines.map((l) => JSON.parse(l)).filter((l) => /not valid UTF-8/.test(l.msg));
    expect(lines).toEqual([expect.objectContaining({ level: 40, ip: '127.0.0.1', code: 1006 })]);

    // The same bytes in a binary frame are MessagePack garbage: BAD_MESSAGE, connection kept.
    valid.socket.write(frame(2, Buffer.from([0x5b, 0x22, 0xff, 0xfe, 0x22, 0x5d])));
    await expect.poll(() => valid.after().toString()).toContain('BAD_MESSAGE');
    bystander.send('player:chat', { message: 'still here' });
    expect((await bystander.next('error')).payload.event).toBe('player:chat');
    expect((await fetch(`${s.url}/health`)).status).toBe(200);
    bystander.close();
    valid.socket.destroy();
  });
});
