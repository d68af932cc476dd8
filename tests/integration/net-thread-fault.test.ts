import type { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { startTsWorker } from '../../lib/ts-worker.ts';
import type { FromNet, NetWorkerData, ToNet } from '../../net/thread/messages.ts';

/**
 * The network thread contains its own errors: a uWS worker that dies with sockets open aborts the
 * whole process (every unsaved character with it), so a throw there is reported to main and the
 * thread keeps serving.
 */

const data: NetWorkerData = {
  host: '127.0.0.1',
  port: 0,
  trustProxy: false,
  rateLimitDisabled: true,
  maxBufferedBytes: 1 << 20,
  idleTimeoutSeconds: 30,
  maxBodyBytes: 1024,
  bodyTimeoutMs: 5000,
  wsConnectionsPerAddress: 20,
  wsOriginRules: null,
};

let worker: Worker | undefined;

afterEach(async () => {
  const w = worker;
  worker = undefined;
  if (w === undefined) return;
  const stopped = next(w, (m) => m.t === 'stopped');
  w.postMessage({ t: 'stop' } satisfies ToNet);
  await stopped;
  await w.terminate();
});

function next(w: Worker, match: (m: FromNet) => boolean): Promise<FromNet> {
  return new Promise((resolve) => {
    const on = (m: FromNet) => {
      if (!match(m)) return;
      w.off('message', on);
      resolve(m);
    };
    w.on('message', on);
  });
}

describe('network thread faults', () => {
  it('reports a throw while handling a message from main, and keeps serving HTTP', async () => {
    const w = startTsWorker(new URL('../../net/thread/net-worker.ts', import.meta.url), data);
    worker = w;
    const listening = await next(w, (m) => m.t === 'listening');
    const port = (listening as Extract<FromNet, { t: 'listening' }>).port;

    // A malformed frame batch: reading it throws on the network thread.
    const fault = next(w, (m) => m.t === 'fault');
    const bogus: ToNet = {
      t: 'frames',
      batch: {
        added: [],
        used: [],
        dropped: null as unknown as number[],
        count: 1,
        ids: Int32Array.of(1),
        text: Uint8Array.of(0),
        firstSegment: Uint32Array.of(0, 1),
        chunk: Uint32Array.of(3),
        start: Uint32Array.of(0),
        end: Uint32Array.of(4),
      },
    };
    w.postMessage(bogus);
    const reported = (await fault) as Extract<FromNet, { t: 'fault' }>;
    expect(reported.where).toBe('message from main');
    expect(reported.message).toMatch(/\S/);
    expect(reported.stack).toContain('writeFrames');

    // Still serving: a request is forwarded to main, and main's reply reaches the client.
    const forwarded = next(w, (m) => m.t === 'events' && m.events.some((e) => e.t === 'http'));
    const response = fetch(`http://127.0.0.1:${port}/anything`);
    const events = (await forwarded) as Extract<FromNet, { t: 'events' }>;
    const req = events.events.find((e) => e.t === 'http');
    if (req?.t !== 'http') throw new Error('no request forwarded');
    expect(req.req.url).toBe('/anything');
    w.postMessage({
      t: 'http',
      reply: { id: req.req.id, status: 200, headers: [], body: 'still here', head: false, close: false },
    } satisfies ToNet);
    const res = await response;
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('still here');
  });
});
