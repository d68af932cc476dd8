import { unpack } from 'msgpackr';
import { describe, expect, it } from 'vitest';
import { Rng } from '../../ecs/core/rng.ts';
import { FragmentCache } from '../../net/replication/encode.ts';
import type { FrameSegments } from '../../net/replication/msgpack-entity.ts';
import { Replicator } from '../../net/replication/replicator.ts';
import { FrameBatchWriter, FrameChunks, framesByConnection } from '../../net/thread/frame-batch.ts';
import type { FrameBatch } from '../../net/thread/messages.ts';
import { Scenario } from './harness.ts';

/**
 * With the replication arena in the network thread's shared chunks, an unshared world:update leaves
 * the main thread as a list of segments that the network thread joins. The joined bytes must be the
 * frame the copying encoder builds, byte for byte, and must survive the next tick: the arena is reset
 * every tick, but a chunk is reused only once the batch that names it has been written.
 */

/** A crowd that walks, runs, teleports and leaves: entered, changed, removed and shared runs. */
function crowd(seed: number) {
  const s = new Scenario({ seed, viewDistance: 15 });
  const spawn = s.world.content.spawn;
  const ids: string[] = [];
  for (let i = 0; i < 60; i++) {
    ids.push(
      s.addPlayer({ name: `P${i}`, x: spawn.x + ((i * 7) % 40) - 20, z: spawn.z + ((i * 13) % 40) - 20 }),
    );
  }
  for (const id of ids) s.push({ type: 'setAdmin', characterId: id });
  s.step();
  const rng = new Rng(seed);
  const tick = () => {
    for (const id of ids) {
      if (!s.world.players.has(id)) continue;
      const roll = rng.int(0, 20);
      const p = s.world.players.get(id) as { eid: number };
      const x = (s.world.c.Position.x[p.eid] as number) + rng.int(-6, 6);
      const z = (s.world.c.Position.z[p.eid] as number) + rng.int(-6, 6);
      if (roll < 10) s.push({ type: 'move', characterId: id, x, z, run: roll < 3 });
      else if (roll === 10)
        s.push({ type: 'chatCommand', characterId: id, name: 'tp', args: [String(x + 40), String(z)] });
      else if (roll === 11 && rng.int(0, 10) === 0)
        s.push({ type: 'leave', characterId: id, reason: 'logout' });
    }
    s.step();
  };
  return { s, ids, tick };
}

const joined = (batch: FrameBatch, chunks: FrameChunks) =>
  [...framesByConnection(batch, chunks)].map(({ id, frames }) => ({ id, bytes: frames[0]?.bytes }));

describe('world:update as segments of shared chunks', () => {
  it('joins to exactly the frame the copying encoder builds, tick after tick', () => {
    const { s, tick } = crowd(7);
    const replicator = new Replicator(s.world);
    const copying = new FragmentCache(s.world);
    const writer = new FrameBatchWriter();
    replicator.cache.shareArena(writer);
    const chunks = new FrameChunks();
    let segmentFrames = 0;
    let removedSeen = 0;
    for (let t = 0; t < 30; t++) {
      tick();
      const expected: Uint8Array[] = [];
      const deltas = replicator.collect();
      deltas.forEach((d, i) => {
        const frame = replicator.cache.encodeForBatch(d, 'msgpack');
        if (!(frame instanceof Uint8Array) && typeof frame !== 'string') segmentFrames++;
        writer.add(i, frame);
        expected.push(Uint8Array.from(copying.encodeTransient(d, 'msgpack') as Uint8Array));
        removedSeen += d.removed.length;
      });
      const batch = writer.take();
      if (batch === null) continue;
      chunks.accept(batch);
      const got = joined(batch, chunks);
      expect(got.map((g) => g.id)).toEqual(deltas.map((_, i) => i));
      got.forEach((g, i) => {
        expect(Buffer.from(g.bytes as Uint8Array).equals(Buffer.from(expected[i] as Uint8Array))).toBe(true);
        expect(unpack(g.bytes as Uint8Array)).toEqual(['world:update', replicator.cache.payload(deltas[i]!)]);
      });
      writer.recycle(batch.used);
    }
    // The test meant something: most frames went as segments, and players left view.
    expect(segmentFrames).toBeGreaterThan(200);
    expect(removedSeen).toBeGreaterThan(0);
    // Chunks are reused, not piled up.
    expect(writer.chunkCount).toBeLessThanOrEqual(4);
  });

  it('a batch still being written keeps its chunks while the next ticks encode', () => {
    const { s, tick } = crowd(11);
    const replicator = new Replicator(s.world);
    const writer = new FrameBatchWriter();
    replicator.cache.shareArena(writer);
    const chunks = new FrameChunks();
    tick();
    const deltas = replicator.collect();
    const payloads = deltas.map((d) => replicator.cache.payload(d));
    deltas.forEach((d, i) => {
      writer.add(i, replicator.cache.encodeForBatch(d, 'msgpack') as FrameSegments);
    });
    const held = writer.take() as FrameBatch;
    chunks.accept(held);
    // Three more ticks encode (the arena resets each time) while `held` is not handed back yet.
    for (let t = 0; t < 3; t++) {
      tick();
      replicator.collect().forEach((d, i) => {
        writer.add(i, replicator.cache.encodeForBatch(d, 'msgpack'));
      });
      const b = writer.take();
      if (b === null) continue;
      expect(b.used.some((c) => held.used.includes(c))).toBe(false);
      chunks.accept(b);
      writer.recycle(b.used);
    }
    const got = joined(held, chunks);
    got.forEach((g, i) => {
      expect(unpack(g.bytes as Uint8Array)).toEqual(['world:update', payloads[i]]);
    });
    writer.recycle(held.used);
  });
});
