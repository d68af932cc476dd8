import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inboundLimits } from '../../net/session/inbound.ts';
import { type DefaultWorld, startDefaultWorld } from '../helpers/default-world.ts';
import { TestWsClient } from '../helpers/ws-client.ts';

/**
 * Issue 26 item 3: the commands a connection may have waiting for the tick are bounded. The real server
 * (transport limit off, so one socket can send faster than 60 a second); once both players are in, the
 * tick loop is stopped and ticks are run by hand, so what each tick applies is exact.
 */

const TICK_MS = 1000;
const limits = inboundLimits(TICK_MS);
let world: DefaultWorld;
const clients: TestWsClient[] = [];

beforeAll(async () => {
  world = await startDefaultWorld('inbound-backlog', { TICK_MS: String(TICK_MS) });
});

afterAll(async () => {
  for (const c of clients) c.close();
  await world?.stop();
});

async function enter(): Promise<{ client: TestWsClient; id: string }> {
  const client = await TestWsClient.connect(world.wsUrl, { encoding: 'json' });
  clients.push(client);
  client.send('authenticate', {});
  const auth = await client.next('authResult', 15_000);
  expect(auth.payload.success).toBe(true);
  await client.next('player:sync', 15_000);
  return { client, id: auth.payload.characterId as string };
}

/** The chat lines `from` said, as `client` received them, in order. */
const linesOf = (client: TestWsClient, from: string): string[] =>
  client.received
    .filter((m) => m.event === 'chat:message' && m.payload.fromId === from)
    .map((m) => m.payload.message as string);

async function refusalMetric(): Promise<number> {
  const res = await fetch(`http://127.0.0.1:${world.srv.server.metricsPort}/metrics`);
  const line = (await res.text()).split('\n').find((l) => l.includes('limit="ws_backlog"'));
  return line === undefined ? 0 : Number(line.split(' ').at(-1));
}

describe('bounded inbound queue per connection', () => {
  it('refuses what is over the backlog with RATE_LIMITED naming the event; the rest applies, in order; another player is served in the next tick', async () => {
    expect(limits).toEqual({ perTick: 60, backlog: 120 });
    const flooder = await enter();
    const calm = await enter();
    const { loop } = world.srv.runtime;
    loop.stop();
    try {
      await flood(flooder, calm);
    } finally {
      // Logouts wait for a tick: the loop runs again for the shutdown.
      loop.start();
    }
  }, 60_000);
});

async function flood(
  flooder: { client: TestWsClient; id: string },
  calm: { client: TestWsClient; id: string },
): Promise<void> {
  const { loop, queue } = world.srv.runtime;
  const over = 40;
  for (let i = 0; i < limits.backlog + over; i++)
    flooder.client.send('player:chat', { message: `flood ${i}` });
  const refusals = () => flooder.client.received.filter((m) => m.event === 'error');
  await expect.poll(() => refusals().length, { timeout: 10_000 }).toBe(over);
  for (const r of refusals())
    expect(r.payload).toEqual({ code: 'RATE_LIMITED', message: expect.any(String), event: 'player:chat' });
  expect(queue.pending(flooder.id)).toBe(limits.backlog);
  expect(await refusalMetric()).toBe(over);

  // Sent after the whole flood was taken in: still applied in the very next tick.
  calm.client.send('player:chat', { message: 'calm' });
  await expect.poll(() => queue.pending(calm.id)).toBe(1);
  loop.runTick();
  await expect.poll(() => linesOf(calm.client, calm.id)).toEqual(['calm']);
  await expect.poll(() => linesOf(flooder.client, flooder.id).length).toBe(limits.perTick);

  // The flooder's accepted commands all apply, in the order sent, at its share per tick.
  loop.runTick();
  await expect.poll(() => linesOf(flooder.client, flooder.id).length).toBe(limits.backlog);
  expect(linesOf(flooder.client, flooder.id)).toEqual(
    Array.from({ length: limits.backlog }, (_, i) => `flood ${i}`),
  );
  expect(queue.length).toBe(0);
  expect(refusals()).toHaveLength(over);

  // Room again once the tick took them.
  flooder.client.send('player:chat', { message: 'again' });
  await expect.poll(() => queue.pending(flooder.id)).toBe(1);
  loop.runTick();
  await expect.poll(() => linesOf(flooder.client, flooder.id).at(-1)).toBe('again');
}
