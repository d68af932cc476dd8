import { NatsMessaging } from '../net/messaging/nats.ts';
import type { CharacterMessage } from '../net/messaging/port.ts';

/**
 * Cross-world messaging over NATS (docs/scaling.md): two worlds' messaging ports (two connections),
 * private messages from world 1 to characters hosted by world 2, one at a time, latency from publish to
 * the handler; then presence fan-out: every world publishes its players' presence, each world hears
 * all of it. The NATS hop only: a message in the game also waits for the next tick on both sides.
 *
 *   NATS_URL=nats://127.0.0.1:4222 npx tsx bench/worlds.ts [messages=2000] [worlds=3] [playersPerWorld=1000]
 */

const url = process.env['NATS_URL'] ?? 'nats://127.0.0.1:4222';
const messages = Number(process.argv[2] ?? 2000);
const worldCount = Number(process.argv[3] ?? 3);
const perWorld = Number(process.argv[4] ?? 1000);
const prefix = `bench_${process.pid}`;

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0;

async function pmLatency(): Promise<void> {
  const w1 = await NatsMessaging.connect({ url, prefix });
  const w2 = await NatsMessaging.connect({ url, prefix });
  const lat: number[] = [];
  let waiting: (() => void) | undefined;
  let sentAt = 0;
  w2.subscribe('bob', () => {
    lat.push(performance.now() - sentAt);
    waiting?.();
  });
  await w2.flush();
  for (let i = 0; i < messages; i++) {
    const got = new Promise<void>((r) => {
      waiting = r;
    });
    sentAt = performance.now();
    const m: CharacterMessage = {
      kind: 'privateMessage',
      fromId: 'alice',
      fromName: 'Alice',
      message: `m${i}`,
      timestamp: Date.now(),
    };
    w1.publish('bob', m);
    await got;
  }
  lat.sort((a, b) => a - b);
  console.log(
    `private message world 1 -> world 2 (${messages}, one at a time): p50 ${pct(lat, 50).toFixed(3)} ms, p99 ${pct(lat, 99).toFixed(3)} ms, max ${(lat.at(-1) ?? 0).toFixed(3)} ms`,
  );
  await w1.close();
  await w2.close();
}

async function presenceFanOut(): Promise<void> {
  const ports = await Promise.all(
    Array.from({ length: worldCount }, () => NatsMessaging.connect({ url, prefix })),
  );
  const total = worldCount * perWorld;
  const heard = ports.map(() => 0);
  let done: () => void = () => {};
  const all = new Promise<void>((r) => {
    done = r;
  });
  for (const [i, p] of ports.entries()) {
    p.onPresence(() => {
      heard[i] = (heard[i] ?? 0) + 1;
      if (heard.every((n) => n === total)) done();
    });
  }
  await Promise.all(ports.map((p) => p.flush()));
  const t0 = performance.now();
  ports.forEach((p, w) => {
    for (let i = 0; i < perWorld; i++)
      p.presenceChanged({ characterId: `w${w}-${i}`, name: `W${w}P${i}`, online: true, world: w + 1 });
  });
  await all;
  const ms = performance.now() - t0;
  console.log(
    `presence fan-out: ${worldCount} worlds x ${perWorld} players online at once, each world hears all ${total}: ${ms.toFixed(1)} ms (${Math.round((total * worldCount) / (ms / 1000))} deliveries/s)`,
  );
  await Promise.all(ports.map((p) => p.close()));
}

await pmLatency();
await presenceFanOut();
