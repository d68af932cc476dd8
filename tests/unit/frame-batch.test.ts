import { describe, expect, it } from 'vitest';
import {
  CHUNK_BYTES,
  FrameBatchWriter,
  FrameChunks,
  framesByConnection,
} from '../../net/thread/frame-batch.ts';
import type { FrameBatch } from '../../net/thread/messages.ts';

/** What the network thread would send, per connection: each frame joined, with its kind. */
function unpackBatch(w: FrameBatchWriter, chunks = new FrameChunks()) {
  const batch = w.take();
  if (batch === null) return [];
  chunks.accept(batch);
  return [...framesByConnection(batch, chunks)].map(({ id, frames }) => ({
    id,
    frames: frames.map((f) => ({
      text: f.text,
      bytes: Buffer.from(f.bytes).toString('latin1'),
    })),
  }));
}

const bytes = (s: string) => new Uint8Array(Buffer.from(s, 'latin1'));

function unpackWith(batch: FrameBatch, chunks: FrameChunks) {
  return [...framesByConnection(batch, chunks)].map(({ id, frames }) => ({
    id,
    frames: frames.map((f) => ({ text: f.text, bytes: Buffer.from(f.bytes).toString('latin1') })),
  }));
}

describe('FrameBatchWriter', () => {
  it('keeps every connection frame order, text and binary, and groups consecutive frames per connection', () => {
    const w = new FrameBatchWriter();
    w.add(1, bytes('a1'));
    w.add(1, 'text é');
    w.add(2, bytes('b1'));
    w.add(1, bytes('a2'));
    expect(w.count).toBe(4);
    expect(unpackBatch(w)).toEqual([
      {
        id: 1,
        frames: [
          { text: false, bytes: 'a1' },
          { text: true, bytes: Buffer.from('text é').toString('latin1') },
        ],
      },
      { id: 2, frames: [{ text: false, bytes: 'b1' }] },
      { id: 1, frames: [{ text: false, bytes: 'a2' }] },
    ]);
    expect(w.take()).toBeNull();
  });

  it('stores a frame object queued for many connections once, and copies a scratch buffer at once', () => {
    const w = new FrameBatchWriter();
    const line = bytes('chat line');
    for (let id = 1; id <= 100; id++) w.add(id, line);
    const scratch = bytes('first');
    w.add(101, scratch);
    scratch.set(bytes('XXXXX'));
    const batch = w.take()!;
    expect(batch.count).toBe(101);
    expect(new Set(batch.start.slice(0, 100)).size).toBe(1);
    const chunks = new FrameChunks();
    chunks.accept(batch);
    const frames = [...framesByConnection(batch, chunks)];
    expect(Buffer.from(frames[100]!.frames[0]!.bytes).toString()).toBe('first');
    expect(w.bytes).toBe(100 * 9 + 5);
  });

  it('spreads bytes over chunks, gives an oversized frame its own, and reuses handed-back chunks', () => {
    const w = new FrameBatchWriter();
    const chunks = new FrameChunks();
    const big = new Uint8Array(CHUNK_BYTES + 10).fill(7);
    const mid = new Uint8Array(CHUNK_BYTES / 2 + 1).fill(1);
    w.add(1, mid);
    w.add(1, big);
    w.add(2, mid.slice());
    w.add(3, bytes('tail'));
    const batch = w.take()!;
    expect(batch.used.length).toBe(3);
    expect(batch.added.map((a) => a.buffer.byteLength).sort()).toEqual(
      [CHUNK_BYTES, CHUNK_BYTES, CHUNK_BYTES + 10].sort(),
    );
    chunks.accept(batch);
    const frames = [...framesByConnection(batch, chunks)];
    expect(frames.map((f) => f.frames.map((x) => x.bytes.length))).toEqual([
      [mid.length, big.length],
      [mid.length],
      [4],
    ]);
    expect(frames[0]!.frames[1]!.bytes.every((b) => b === 7)).toBe(true);
    expect(Buffer.from(frames[2]!.frames[0]!.bytes).toString()).toBe('tail');

    // Not yet handed back: the next batch may not touch those chunks.
    w.add(1, bytes('busy'));
    const meanwhile = w.take()!;
    expect(meanwhile.used.some((i) => batch.used.includes(i))).toBe(false);
    chunks.accept(meanwhile);

    // Handed back: standard chunks are filled again without crossing again; the oversized one is dropped.
    w.recycle(batch.used);
    expect(w.chunkCount).toBe(3);
    w.add(1, bytes('again'));
    const next = w.take()!;
    expect(next.added).toEqual([]);
    expect(next.dropped).toHaveLength(1);
    expect(batch.used).toContain(next.used[0]);
    chunks.accept(next);
    expect(Buffer.from([...framesByConnection(next, chunks)][0]!.frames[0]!.bytes).toString()).toBe('again');
    expect(() => chunks.get(next.dropped[0]!)).toThrow(/unknown chunk/);
  });

  it('joins a frame given as segments of lent chunks, and reuses a lent chunk only when nobody holds it', () => {
    const w = new FrameBatchWriter();
    const chunks = new FrameChunks();
    const lent = w.lend(100);
    lent.bytes.set(bytes('HEAD-body-TAIL'), 0);
    const segments = {
      count: 2,
      bytes: 8,
      chunk: Uint32Array.of(lent.id, lent.id),
      start: Uint32Array.of(0, 10),
      end: Uint32Array.of(4, 14),
    };
    w.add(5, segments);
    w.add(5, bytes('next'));
    const batch = w.take()!;
    chunks.accept(batch);
    expect(unpackWith(batch, chunks)).toEqual([
      {
        id: 5,
        frames: [
          { text: false, bytes: 'HEADTAIL' },
          { text: false, bytes: 'next' },
        ],
      },
    ]);
    expect(batch.used).toContain(lent.id);
    // Written, but the borrower still holds it: not lent again.
    w.recycle(batch.used);
    expect(w.lend(10).id).not.toBe(lent.id);
    // Given back too: free again.
    w.giveBack([lent.id]);
    expect(w.lend(10).id).toBe(lent.id);
  });
});
