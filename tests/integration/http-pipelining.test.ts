import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServerMetrics, metricsText } from '../../lib/metrics.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

/**
 * Issue 26, item 6: HTTP/1.1 pipelining is not served, and says so. Every answer is written after a
 * round trip to the main thread, and uWebSockets closes a connection that sends its next request before
 * the previous answer was written: two requests in one TCP write get no answer and a closed connection.
 * Clients retry unanswered requests on a new connection (RFC 9112 §9.3.2). The server counts each such
 * close (game_limit_refusals_total{limit="http_pipelined"}), serves the next connection, and answers
 * requests sent one after another on a kept-alive connection.
 */

let s: TestServer;
const metrics = createServerMetrics();
beforeAll(async () => {
  s = await startTestServer({}, { metrics });
});
afterAll(async () => {
  await s?.stop();
});

const GET = 'GET /health HTTP/1.1\r\nHost: x\r\n\r\n';

/** Open a connection; `read()` waits for `responses` complete answers (or the close, or 3 s). */
function connect(): Promise<{
  socket: net.Socket;
  read(responses: number): Promise<{ statuses: string[]; closed: boolean }>;
}> {
  return new Promise((resolve) => {
    const socket = net.connect(s.port, '127.0.0.1', () => resolve({ socket, read }));
    let text = '';
    let closed = false;
    let wake: () => void = () => {};
    socket.on('data', (c) => {
      text += c.toString('latin1');
      wake();
    });
    const end = () => {
      closed = true;
      wake();
    };
    socket.on('end', end);
    socket.on('error', end);
    const statuses = () => [...text.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((m) => m[1] as string);
    async function read(responses: number) {
      const deadline = Date.now() + 3000;
      while (!closed && statuses().length < responses && Date.now() < deadline) {
        await new Promise<void>((r) => {
          wake = r;
          setTimeout(r, 50);
        });
      }
      return { statuses: statuses(), closed };
    }
  });
}

const pipelined = async () =>
  Number(
    /game_limit_refusals_total\{limit="http_pipelined"\} (\d+)/.exec(
      await metricsText(metrics.registry),
    )?.[1] ?? 0,
  );

describe('HTTP/1.1 pipelining', () => {
  it('two GET /health in one write: the connection closes without an answer, counted as pipelining', async () => {
    const before = await pipelined();
    const c = await connect();
    c.socket.write(GET + GET);
    expect(await c.read(2)).toEqual({ statuses: [], closed: true });
    c.socket.destroy();
    await expect.poll(pipelined).toBe(before + 1);
  });

  it('the server then answers a new connection, and requests sent one after another on one connection', async () => {
    const c = await connect();
    for (let i = 1; i <= 3; i++) {
      c.socket.write(GET);
      expect(await c.read(i)).toEqual({ statuses: new Array(i).fill('200'), closed: false });
    }
    c.socket.destroy();
  });

  it('a client that goes away before its answer is not counted as pipelining', async () => {
    const before = await pipelined();
    const c = await connect();
    c.socket.write('POST /api/nowhere HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\n12345');
    await new Promise((r) => setTimeout(r, 100));
    c.socket.destroy();
    await new Promise((r) => setTimeout(r, 300));
    expect(await pipelined()).toBe(before);
    expect((await fetch(`${s.url}/health`)).status).toBe(200);
  });
});
