import { unpack } from 'msgpackr';
import { describe, expect, it } from 'vitest';
import { Rng } from '../../ecs/core/rng.ts';
import { GROUND_ITEMS } from '../../ecs/features/ground-items/state.ts';
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

describe('a newcomer to a crowd', () => {
  /**
   * Sixteen players on one grid cell (four columns, four rows from its corner), then the newcomers, in
   * the same tick as far as replication is concerned: its observers are made at the first collect.
   */
  function crowdThenNewcomers(newcomers: { x: number; z: number }[], dropper = false) {
    const s = new Scenario({ seed: 3, viewDistance: 15 });
    const { grid } = s.world;
    const spawn = s.world.content.spawn;
    const x0 = grid.colStart(grid.colOf(spawn.x));
    const z0 = grid.rowStart(grid.rowOf(spawn.z));
    const at = (dx: number, dz: number) => ({ x: x0 + dx, z: z0 + dz });
    const crowd = Array.from({ length: 16 }, (_, i) =>
      s.addPlayer({
        name: `C${i}`,
        ...at(i % 4, i >> 2),
        inventory: dropper && i === 0 ? [{ itemId: 'feather', quantity: 5 }] : [],
      }),
    );
    if (dropper) {
      s.push({ type: 'inventoryDrop', characterId: crowd[0] as string, slot: 0, quantity: 1 });
      s.step();
    }
    const came = newcomers.map((p, i) => s.addPlayer({ name: `N${i}`, ...at(p.x, p.z) }));
    const replicator = new Replicator(s.world);
    const deltas = new Map(replicator.collect().map((d) => [d.characterId, d]));
    const cell = grid.cellIndex(x0, z0);
    return { s, replicator, deltas, crowd, came, cell, x0 };
  }

  const idsIn = (entities: { id: string }[]) => entities.map((e) => e.id);

  it('is sent the cell as one run of full entries, the same bytes for every newcomer that tick', () => {
    const { s, replicator, deltas, crowd, came, cell } = crowdThenNewcomers([
      { x: 5, z: 5 },
      { x: 6, z: 6 },
    ]);
    const writer = new FrameBatchWriter();
    replicator.cache.shareArena(writer);
    const chunks = new FrameChunks();
    const copying = new FragmentCache(s.world);
    const expected: Uint8Array[] = [];
    came.forEach((id, i) => {
      const d = deltas.get(id);
      expect(d?.enteredCells, id).toEqual([cell]);
      const payload = replicator.cache.payload(d!);
      // Every member of the crowd (and the newcomers, on the same cell), with all its public fields.
      for (const member of [...crowd, ...came])
        expect(
          payload.entities.find((e) => e.id === member),
          `${id} sees ${member}`,
        ).toHaveProperty('name');
      expect(JSON.parse(replicator.cache.encode(d!, 'json') as string)).toEqual(['world:update', payload]);
      writer.add(i, replicator.cache.encodeForBatch(d!, 'msgpack'));
      expected.push(Uint8Array.from(copying.encodeTransient(d!, 'msgpack') as Uint8Array));
    });
    const batch = writer.take() as FrameBatch;
    chunks.accept(batch);
    joined(batch, chunks).forEach((g, i) => {
      expect(Buffer.from(g.bytes as Uint8Array).equals(Buffer.from(expected[i] as Uint8Array))).toBe(true);
      expect(unpack(g.bytes as Uint8Array)).toEqual([
        'world:update',
        replicator.cache.payload(deltas.get(came[i] as string)!),
      ]);
    });
    writer.recycle(batch.used);
  });

  it('a cell that reaches beyond its view enters one by one: only those within view', () => {
    // The crowd stands 13..16 tiles east of the newcomer: all within keep range (17), its last column
    // beyond view (15).
    const { s, replicator, deltas, came, cell, x0 } = crowdThenNewcomers([{ x: -13, z: 2 }]);
    const newcomer = came[0] as string;
    const d = deltas.get(newcomer)!;
    expect(d.enteredCells).not.toContain(cell);
    const seen = new Set(idsIn(replicator.cache.payload(d).entities));
    for (const eid of s.world.grid.cell(cell)) {
      const within = (s.world.c.Position.x[eid] as number) - (x0 - 13) <= 15;
      expect(seen.has(s.world.wireIds[eid] as string), `${s.world.wireIds[eid]}`).toBe(within);
    }
  });

  it("a cell holding someone else's loot enters one by one, without the loot", () => {
    const { s, replicator, deltas, crowd, came, cell } = crowdThenNewcomers([{ x: 5, z: 5 }], true);
    const [item] = [...s.world.get(GROUND_ITEMS).byEid.keys()];
    const itemId = s.world.wireIds[item as number] as string;
    expect(s.world.grid.cellOfEntity(item as number)).toBe(cell);
    const d = deltas.get(came[0] as string)!;
    expect(d.enteredCells).not.toContain(cell);
    const seen = idsIn(replicator.cache.payload(d).entities);
    expect(seen).not.toContain(itemId);
    for (const member of crowd) expect(seen).toContain(member);
    // Its owner sees it.
    expect(idsIn(replicator.cache.payload(deltas.get(crowd[0] as string)!).entities)).toContain(itemId);
  });
});
