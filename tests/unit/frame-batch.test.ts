import { describe, expect, it } from 'vitest';
import { CHUNK_BYTES, FrameBatchWriter, framesByConnection } from '../../net/thread/frame-batch.ts';

/** What the network thread would send, per connection: each frame joined, with its kind. */
function unpackBatch(w: FrameBatchWriter) {
  const batch = w.take();
  if (batch === null) return [];
  return [...framesByConnection(batch)].map(({ id, frames }) => ({
    id,
    frames: frames.map((f) => ({
      text: f.text,
      bytes: Buffer.from(f.bytes).toString('latin1'),
    })),
  }));
}

const bytes = (s: string) => new Uint8Array(Buffer.from(s, 'latin1'));

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
    const batch = w.take();
    expect(batch?.count).toBe(101);
    expect(new Set(batch?.start.slice(0, 100)).size).toBe(1);
    const frames = [...framesByConnection(batch!)];
    expect(Buffer.from(frames[100]!.frames[0]!.bytes).toString()).toBe('first');
    expect(w.bytes).toBe(100 * 9 + 5);
  });

  it('spreads bytes over chunks, gives an oversized frame its own buffer, and reuses recycled chunks', () => {
    const w = new FrameBatchWriter();
    const big = new Uint8Array(CHUNK_BYTES + 10).fill(7);
    const mid = new Uint8Array(CHUNK_BYTES / 2 + 1).fill(1);
    w.add(1, mid);
    w.add(1, big);
    w.add(2, mid.slice());
    w.add(3, bytes('tail'));
    const batch = w.take()!;
    expect(batch.buffers.length).toBe(3);
    const frames = [...framesByConnection(batch)];
    expect(frames.map((f) => f.frames.map((x) => x.bytes.length))).toEqual([
      [mid.length, big.length],
      [mid.length],
      [4],
    ]);
    expect(frames[0]!.frames[1]!.bytes.every((b) => b === 7)).toBe(true);
    const standard = batch.buffers.filter((b) => b.byteLength === CHUNK_BYTES);
    for (const b of batch.buffers) w.recycle(b);
    w.add(1, bytes('again'));
    const next = w.take()!;
    expect(standard).toContain(next.buffers[0]);
  });
});
