import { afterEach, describe, expect, it, vi } from 'vitest';
import { LoginQueue } from '../../net/session/login-queue.ts';

/** Issue 19: the login queue is bounded, first come first served, and tells waiting logins their place. */

interface Fake {
  name: string;
  reports: number[];
  closed: boolean;
  finish: () => void;
  started: boolean;
}

function harness(opts: { maxActive: number; maxWaiting?: number }) {
  const queue = new LoginQueue({ ...opts, reportEveryMs: 1000 });
  const order: string[] = [];
  const fakes = new Map<string, Fake>();
  const submit = (name: string) => {
    const f: Fake = { name, reports: [], closed: false, finish: () => {}, started: false };
    fakes.set(name, f);
    const r = queue.submit({
      run: () =>
        new Promise<void>((resolve) => {
          f.started = true;
          order.push(name);
          f.finish = resolve;
        }),
      report: (p) => f.reports.push(p),
      cancelled: () => f.closed,
    });
    return { f, r };
  };
  const get = (name: string) => fakes.get(name) as Fake;
  return { queue, order, submit, get };
}

const flush = () => new Promise((r) => setImmediate(r));

afterEach(() => {
  vi.useRealTimers();
});

describe('LoginQueue', () => {
  it('runs up to maxActive at once and the rest strictly in arrival order', async () => {
    const h = harness({ maxActive: 2 });
    for (const n of ['a', 'b', 'c', 'd', 'e']) h.submit(n);
    expect(h.order).toEqual(['a', 'b']);
    expect(h.queue.waitingCount).toBe(3);
    h.get('b').finish();
    await flush();
    expect(h.order).toEqual(['a', 'b', 'c']);
    // A newcomer queues behind those waiting even when a slot is free at that moment.
    h.get('a').finish();
    h.submit('f');
    await flush();
    expect(h.order).toEqual(['a', 'b', 'c', 'd']);
    for (const n of ['c', 'd', 'e', 'f']) {
      h.get(n).finish();
      await flush();
    }
    expect(h.order).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
    expect(h.queue.activeCount).toBe(0);
    expect(h.queue.waitingCount).toBe(0);
  });

  it('tells each waiting login its position when queued, then only when it changed', async () => {
    const h = harness({ maxActive: 1 });
    for (const n of ['a', 'b', 'c', 'd']) h.submit(n);
    expect(h.get('a').reports).toEqual([]); // ran at once: nothing to report
    expect([h.get('b').reports, h.get('c').reports, h.get('d').reports]).toEqual([[1], [2], [3]]);
    h.queue.reportPositions();
    expect(h.get('d').reports).toEqual([3]); // unchanged: not repeated
    h.get('a').finish();
    await flush();
    h.queue.reportPositions();
    expect([h.get('c').reports, h.get('d').reports]).toEqual([
      [2, 1],
      [3, 2],
    ]);
    expect(h.get('b').reports).toEqual([1]); // running now
  });

  it('reports positions on its own timer while logins wait, and stops when none do', async () => {
    vi.useFakeTimers();
    const h = harness({ maxActive: 1 });
    for (const n of ['a', 'b', 'c']) h.submit(n);
    h.get('a').finish();
    await vi.advanceTimersByTimeAsync(0);
    expect(h.get('c').reports).toEqual([2]);
    await vi.advanceTimersByTimeAsync(1000);
    expect(h.get('c').reports).toEqual([2, 1]);
    h.get('b').finish();
    await vi.advanceTimersByTimeAsync(1000);
    h.get('c').finish();
    await vi.advanceTimersByTimeAsync(5000);
    expect(h.get('c').reports).toEqual([2, 1]);
    expect(vi.getTimerCount()).toBe(0); // no timer left behind (soak: no timer leak)
  });

  it('skips a login whose connection closed while it waited, and counts it out of the positions', async () => {
    const h = harness({ maxActive: 1 });
    const done: string[] = [];
    for (const n of ['a', 'b', 'c', 'd']) {
      const { r } = h.submit(n);
      if (r !== 'full') void r.then(() => done.push(n));
    }
    h.get('b').closed = true;
    h.queue.reportPositions();
    expect(h.get('c').reports).toEqual([2, 1]);
    expect(h.get('d').reports).toEqual([3, 2]);
    h.get('c').closed = true; // closes after the sweep: dropped when reached
    h.get('a').finish();
    await flush();
    expect(h.order).toEqual(['a', 'd']);
    expect(h.get('b').started).toBe(false);
    expect(done.sort()).toEqual(['a', 'b', 'c']);
  });

  it('is bounded: past maxWaiting a login is refused with "full", and accepted again once there is room', async () => {
    const h = harness({ maxActive: 1, maxWaiting: 2 });
    expect(h.submit('a').r).toBeInstanceOf(Promise);
    expect(h.submit('b').r).toBeInstanceOf(Promise);
    expect(h.submit('c').r).toBeInstanceOf(Promise);
    expect(h.submit('d').r).toBe('full');
    h.get('a').finish();
    await flush();
    expect(h.submit('e').r).toBeInstanceOf(Promise);
    expect(h.get('e').reports).toEqual([2]);
  });

  it('a failing login frees its slot like a successful one', async () => {
    const queue = new LoginQueue({ maxActive: 1 });
    const ran: string[] = [];
    const failing = queue.submit({
      run: () => Promise.reject(new Error('db down')),
      report: () => {},
      cancelled: () => false,
    });
    const next = queue.submit({
      run: async () => void ran.push('next'),
      report: () => {},
      cancelled: () => false,
    });
    await failing;
    await next;
    expect(ran).toEqual(['next']);
  });
});
