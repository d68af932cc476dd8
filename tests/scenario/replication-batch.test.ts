import { unpack } from 'msgpackr';
import { describe, expect, it } from 'vitest';
import type { Encoding } from '../../net/protocol/codec.ts';
import { Replicator } from '../../net/replication/replicator.ts';
import { type Delivery, deliverTick, type Frame } from '../../net/session/outbound.ts';
import { Scenario } from './harness.ts';

/**
 * deliverTick with connections that take a batch: one batch per connected character per tick, holding
 * that character's frames in the wire order (events, world:update, player:sync), the same messages the
 * per-event path sends, and a chat line encoded once for all its hearers.
 */

type Batch = { to: string; tick: number; frames: Frame[] };

function decode(f: Frame): [string, unknown] {
  return typeof f === 'string' ? JSON.parse(f) : (unpack(f as Uint8Array) as [string, unknown]);
}

/**
 * Connections that take a batch. `copies`: like uWS, the bytes are copied during sendBatch, so frames
 * may be scratch views (here: copied at once, so a later overwrite of the scratch would show).
 */
function batching(s: Scenario, encoding: Encoding, copies = false): Delivery & { batches: Batch[] } {
  const batches: Batch[] = [];
  const copy = (f: Frame): Frame => (typeof f === 'string' ? f : Uint8Array.from(f));
  return {
    batches,
    send() {
      throw new Error('every character is connected: nothing goes through send()');
    },
    connection: (to) => ({
      encoding,
      copiesFrames: copies,
      sendBatch: (frames) =>
        // No shared arena here: frames are bytes or strings, never segments.
        batches.push({
          to,
          tick: s.world.tick,
          frames: (copies ? frames.map((f) => copy(f as Frame)) : [...frames]) as Frame[],
        }),
    }),
  };
}

/** The per-event path: what each character is sent, as decoded [event, payload]. */
function perEvent(encoding: Encoding): Delivery & { sent: { to: string; msg: [string, unknown] }[] } {
  const sent: { to: string; msg: [string, unknown] }[] = [];
  return {
    sent,
    send() {
      throw new Error('unexpected');
    },
    sendRaw: (to, frame) => sent.push({ to, msg: decode(frame) }),
    connection: () => ({ encoding }),
  };
}

/** Six players side by side; the same seed and commands give the same world in every run. */
function crowd(delivery: (s: Scenario) => Delivery) {
  const s = new Scenario();
  const r = new Replicator(s.world);
  const d = delivery(s);
  s.afterTick.push((w) => deliverTick(w, r, d));
  const ids = Array.from({ length: 6 }, (_, i) => s.addPlayer({ name: `P${i}`, x: 100 + i, z: 100 }));
  return { s, ids };
}

function play(s: Scenario, ids: string[]): void {
  const [a, c] = ids as [string, string];
  s.push({ type: 'move', characterId: a, x: 110, z: 100, run: false });
  s.push({ type: 'chat', characterId: a, message: 'hello crowd' });
  s.push({ type: 'chat', characterId: c, message: 'psst', to: 'p0' });
  s.push({ type: 'move', characterId: c, x: 999, z: 100, run: false, origin: 'player:move' });
  s.step(3);
}

describe('outbound: one batch per connection per tick', () => {
  for (const [encoding, copies] of [
    ['msgpack', false],
    ['msgpack', true],
    ['json', false],
    ['json', true],
  ] as const) {
    it(`${encoding}${copies ? ', copying connection (scratch frames)' : ''}: one batch per character and tick, in wire order, equal to the per-event path`, () => {
      let b: ReturnType<typeof batching> | undefined;
      const batched = crowd((s) => {
        b = batching(s, encoding, copies);
        return b;
      });
      play(batched.s, batched.ids);
      const single = perEvent(encoding);
      const unbatched = crowd(() => single);
      play(unbatched.s, unbatched.ids);
      const batches = (b as ReturnType<typeof batching>).batches;

      const keys = batches.map((x) => `${x.to}@${x.tick}`);
      expect(new Set(keys).size).toBe(keys.length);
      for (const x of batches) {
        const events = x.frames.map((f) => decode(f)[0]);
        expect(events.filter((e) => e === 'world:update').length).toBeLessThanOrEqual(1);
        const rank = (e: string) => (e === 'player:sync' ? 2 : e === 'world:update' ? 1 : 0);
        expect(events.map(rank)).toEqual([...events.map(rank)].sort());
      }
      const fromBatches = batches.flatMap((x) => x.frames.map((f) => ({ to: x.to, msg: decode(f) })));
      // Same messages per character, in the same order (batches group them by character).
      for (const id of batched.ids) {
        expect(fromBatches.filter((m) => m.to === id)).toEqual(single.sent.filter((m) => m.to === id));
      }
      expect(fromBatches.length).toBe(single.sent.length);
      expect(fromBatches.filter((m) => m.msg[0] === 'chat:message').length).toBeGreaterThanOrEqual(6);
      expect(fromBatches.some((m) => m.msg[0] === 'error')).toBe(true);
      expect(fromBatches.some((m) => m.msg[0] === 'player:sync')).toBe(true);
    });
  }

  it('a local chat line is encoded once for all its hearers', () => {
    let b: ReturnType<typeof batching> | undefined;
    const { s, ids } = crowd((sc) => {
      b = batching(sc, 'msgpack');
      return b;
    });
    s.push({ type: 'chat', characterId: ids[0] as string, message: 'one line' });
    s.step();
    const batches = (b as ReturnType<typeof batching>).batches;
    const chatFrames = batches.flatMap((x) => x.frames.filter((f) => decode(f)[0] === 'chat:message'));
    expect(chatFrames).toHaveLength(ids.length);
    expect(new Set(chatFrames).size).toBe(1);
  });
});
