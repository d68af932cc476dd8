import { describe, expect, it } from 'vitest';
import { DatabaseHealth } from '../../src/db-health.ts';

describe('DatabaseHealth', () => {
  it('reports the last probe without waiting, down on a failing or hanging check, and up again', async () => {
    let mode: 'up' | 'throw' | 'hang' = 'up';
    const changes: boolean[] = [];
    const health = new DatabaseHealth(
      () =>
        mode === 'up'
          ? Promise.resolve(true)
          : mode === 'throw'
            ? Promise.reject(new Error('x'))
            : new Promise(() => {}),
      { timeoutMs: 20, onChange: (ok) => changes.push(ok) },
    );
    expect(await health.probe()).toBe(true);
    mode = 'throw';
    expect(await health.probe()).toBe(false);
    expect(health.isOk()).toBe(false);
    mode = 'hang';
    expect(await health.probe()).toBe(false);
    mode = 'up';
    expect(await health.probe()).toBe(true);
    expect(changes).toEqual([false, true]);
  });

  it('a probe that times out while other calls keep completing is busy, not down', async () => {
    let last = 0;
    let working = true;
    // The work queue: other calls complete while the probe waits (until the database stops working).
    const timer = setInterval(() => {
      if (working) last = performance.now();
    }, 2);
    try {
      const changes: boolean[] = [];
      const health = new DatabaseHealth(() => new Promise(() => {}), {
        timeoutMs: 30,
        activity: () => ({ lastCompletedMs: last, busySinceMs: null }),
        onChange: (ok) => changes.push(ok),
      });
      expect(await health.probe()).toBe(true);
      working = false;
      await new Promise((r) => setTimeout(r, 5));
      expect(await health.probe()).toBe(false);
      expect(changes).toEqual([false]);
    } finally {
      clearInterval(timer);
    }
  });

  it('one long call in flight is busy until it has run for stuckAfterMs', async () => {
    const since = performance.now();
    const health = new DatabaseHealth(() => new Promise(() => {}), {
      timeoutMs: 20,
      stuckAfterMs: 200,
      activity: () => ({ lastCompletedMs: 0, busySinceMs: since }),
    });
    expect(await health.probe()).toBe(true);
    await new Promise((r) => setTimeout(r, 200));
    expect(await health.probe()).toBe(false);
  });
});
