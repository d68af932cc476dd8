import { describe, expect, it } from 'vitest';
import {
  describeTrend,
  type MemorySample,
  memoryTrend,
  warmUpEndsMs,
} from '../../bench/soak/memory-trend.ts';

/** Issue 19: the soak judges memory on the floor under the collector's sawtooth, not on the saw. */

const MB = 1024 * 1024;
const MIN = 60_000;

/** Samples every 10 s from `fromMin` for `minutes`: a heap sawtooth (floor + 0..130 MB, period 70 s). */
function saw(fromMin: number, minutes: number, floor = (_min: number) => 50, rss = (_min: number) => 900) {
  const out: MemorySample[] = [];
  for (let t = fromMin * MIN; t < (fromMin + minutes) * MIN; t += 10_000) {
    const phase = (t % 70_000) / 70_000;
    out.push({ atMs: t, heapUsed: (floor(t / MIN) + 130 * phase) * MB, rss: rss(t / MIN) * MB });
  }
  return out;
}

describe('memoryTrend', () => {
  it('calls a steady floor flat although the samples swing 50-180 MB', () => {
    const trend = memoryTrend(saw(20, 40), 5 * MIN);
    expect(trend.windows).toHaveLength(8);
    expect(trend.windows.every((w) => w.heapFloor === 50 * MB)).toBe(true);
    expect(trend.heapFloorChangePct).toBe(0);
    expect(trend.rssChangePct).toBe(0);
    expect(trend.flat).toBe(true);
  });

  it('sees a floor that grows 10 % over the warm part', () => {
    const trend = memoryTrend(
      saw(20, 40, (m) => 50 * (1 + (0.1 * (m - 20)) / 40)),
      5 * MIN,
    );
    expect(trend.heapFloorChangePct).toBeGreaterThan(7);
    expect(trend.heapFloorChangePct).toBeLessThan(10);
    expect(trend.heapFloorSlopePctPerHour).toBeGreaterThan(10);
    expect(trend.flat).toBe(false);
    expect(describeTrend(trend, 5 * MIN).verdict).toMatch(/^NOT flat/);
  });

  it('sees RSS that grows while the heap does not (native memory)', () => {
    const trend = memoryTrend(
      saw(20, 40, undefined, (m) => 900 + (m - 20) * 2),
      5 * MIN,
    );
    expect(trend.heapFloorChangePct).toBe(0);
    expect(trend.rssChangePct).toBeGreaterThan(5);
    expect(trend.flat).toBe(false);
  });

  it('does not judge fewer than two windows, and drops a short trailing window', () => {
    const short = memoryTrend(saw(4, 8), 5 * MIN);
    // 5 minutes full, then 3 minutes: 18 samples of 30 is more than half, so kept.
    expect(short.windows.map((w) => w.samples)).toEqual([30, 18]);
    const shorter = memoryTrend(saw(4, 6), 5 * MIN);
    expect(shorter.windows.map((w) => w.samples)).toEqual([30]);
    expect(shorter.flat).toBeUndefined();
    expect(describeTrend(shorter, 5 * MIN).verdict).toMatch(/^too short/);
  });

  it('ends warm-up a minute after everyone is in, never before the first third', () => {
    expect(warmUpEndsMs(30_000, 60)).toBe(20 * MIN);
    expect(warmUpEndsMs(30 * MIN, 60)).toBe(31 * MIN);
  });
});
