import { describe, expect, it } from 'vitest';
import { createServerMetrics, metricsText } from '../../lib/metrics.ts';
import { type ConnectionLink, RemoteConnection } from '../../net/thread/remote-connection.ts';
import { encodeFailureReporter } from '../../net/ws/encode-failures.ts';

/** A value nested n levels, built with a loop. */
function nested(n: number): unknown {
  let v: unknown = 1;
  for (let i = 0; i < n; i++) v = i % 2 ? [v] : { a: v };
  return v;
}

function fakeLogger() {
  const lines: { obj: Record<string, unknown>; msg: string | undefined }[] = [];
  return {
    lines,
    error: (obj: object, msg?: string) => lines.push({ obj: obj as Record<string, unknown>, msg }),
  };
}

describe('encode failures: dropped, counted, logged without the payload', () => {
  it('counts every failure in game_encode_failures_total{event} and logs one line a minute per event', async () => {
    const metrics = createServerMetrics();
    const logger = fakeLogger();
    let now = 1_000_000;
    const report = encodeFailureReporter(logger, metrics.encodeFailures, () => now);
    const secret = 'the-payload-holds-a-token-abc123';
    const err = new TypeError('Converting circular structure to JSON');
    report('agent:goal', err, { characterId: 'c1' });
    report('agent:goal', err, { characterId: 'c2' });
    report('quest:list', new RangeError('Maximum call stack size exceeded'), { connection: 7 });
    now += 61_000;
    report('agent:goal', err, { characterId: 'c3' });

    const text = await metricsText(metrics.registry);
    expect(text).toContain('game_encode_failures_total{event="agent:goal"} 3');
    expect(text).toContain('game_encode_failures_total{event="quest:list"} 1');
    expect(logger.lines).toEqual([
      {
        obj: {
          event: 'agent:goal',
          characterId: 'c1',
          error: 'TypeError: Converting circular structure to JSON',
        },
        msg: 'payload dropped for a connection: it cannot be encoded',
      },
      {
        obj: { event: 'quest:list', connection: 7, error: 'RangeError: Maximum call stack size exceeded' },
        msg: 'payload dropped for a connection: it cannot be encoded',
      },
      {
        obj: {
          event: 'agent:goal',
          characterId: 'c3',
          error: 'TypeError: Converting circular structure to JSON',
        },
        msg: 'payload dropped for a connection: it cannot be encoded',
      },
    ]);
    expect(JSON.stringify(logger.lines)).not.toContain(secret);
  });

  it('a RemoteConnection drops a payload it cannot encode and still sends the next one', () => {
    const queued: unknown[] = [];
    const failed: { event: string; error: string }[] = [];
    const link: ConnectionLink = {
      queue: (_id, frame) => queued.push(frame),
      close: () => {},
      closed: () => {},
      encodeFailed: (_conn, event, err) => failed.push({ event, error: (err as Error).name }),
    };
    for (const encoding of ['msgpack', 'json'] as const) {
      queued.length = 0;
      failed.length = 0;
      const conn = new RemoteConnection(1, '127.0.0.1', encoding, new URLSearchParams(), link);
      const circle: Record<string, unknown> = {};
      circle['self'] = circle;
      // msgpackr overflows at 3,000 levels, JSON.stringify at 20,000; neither takes a circle.
      conn.send('agent:goal', { goal: { params: nested(20_000) }, goalsPaused: false } as never);
      conn.send('agent:goal', { goal: { params: circle }, goalsPaused: false } as never);
      conn.send('agent:goal', { goal: null, goalsPaused: false });
      expect(failed.map((f) => f.event)).toEqual(['agent:goal', 'agent:goal']);
      expect(queued).toHaveLength(1);
    }
  });
});
