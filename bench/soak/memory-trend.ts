/**
 * Is memory flat after warm-up? A raw heapUsed series is the collector's sawtooth (in a soak with
 * 2,000 bots it swings 50-180 MB between major collections), so a slope fitted through it is
 * mostly the phase of the saw. What a leak moves is the floor: the live set left after a
 * collection. So the warm samples are cut into windows, each window gives its heap floor (lowest
 * sample) and its median RSS, and the trend is taken over those, first window against last and as
 * a least-squares slope.
 */

export interface MemorySample {
  /** Since the soak's start. */
  atMs: number;
  rss: number;
  heapUsed: number;
}

export interface MemoryWindow {
  fromMinute: number;
  samples: number;
  heapFloor: number;
  rssMedian: number;
}

export interface MemoryTrend {
  windows: MemoryWindow[];
  /** Last window against the first, in % of the first. */
  heapFloorChangePct: number;
  rssChangePct: number;
  /** Least-squares slope over the windows, in % of their mean per hour. */
  heapFloorSlopePctPerHour: number;
  rssSlopePctPerHour: number;
  tolerancePct: number;
  /** Both changes within the tolerance; undefined when there are fewer than two windows. */
  flat: boolean | undefined;
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
};

function slopePctPerHour(xsMs: number[], ys: number[]): number {
  if (xsMs.length < 2) return 0;
  const hours = xsMs.map((x) => x / 3_600_000);
  const mx = hours.reduce((a, b) => a + b, 0) / hours.length;
  const my = ys.reduce((a, b) => a + b, 0) / ys.length;
  const num = hours.reduce((a, x, i) => a + (x - mx) * ((ys[i] as number) - my), 0);
  const den = hours.reduce((a, x) => a + (x - mx) ** 2, 0);
  return den > 0 && my > 0 ? (num / den / my) * 100 : 0;
}
const pct = (from: number, to: number) => (from > 0 ? ((to - from) / from) * 100 : 0);

/**
 * `samples` after warm-up only. Windows of `windowMs` from the first sample; a trailing window with
 * less than half the samples of a full one is dropped (its floor would be a poorer estimate).
 */
export function memoryTrend(samples: MemorySample[], windowMs: number, tolerancePct = 5): MemoryTrend {
  const sorted = [...samples].sort((a, b) => a.atMs - b.atMs);
  const buckets: MemorySample[][] = [];
  const t0 = sorted[0]?.atMs ?? 0;
  for (const s of sorted) {
    const i = Math.floor((s.atMs - t0) / windowMs);
    const bucket = buckets[i] ?? [];
    bucket.push(s);
    buckets[i] = bucket;
  }
  const full = Math.max(...buckets.map((b) => b?.length ?? 0), 0);
  const windows: MemoryWindow[] = [];
  for (const [i, b] of buckets.entries()) {
    if (!b || b.length === 0) continue;
    if (i === buckets.length - 1 && windows.length > 0 && b.length < full / 2) continue;
    windows.push({
      fromMinute: (t0 + i * windowMs) / 60_000,
      samples: b.length,
      heapFloor: Math.min(...b.map((s) => s.heapUsed)),
      rssMedian: median(b.map((s) => s.rss)),
    });
  }
  const first = windows[0];
  const last = windows[windows.length - 1];
  const heapFloorChangePct = first && last ? pct(first.heapFloor, last.heapFloor) : 0;
  const rssChangePct = first && last ? pct(first.rssMedian, last.rssMedian) : 0;
  const mids = windows.map((w) => w.fromMinute * 60_000 + windowMs / 2);
  return {
    windows,
    heapFloorChangePct,
    rssChangePct,
    heapFloorSlopePctPerHour: slopePctPerHour(
      mids,
      windows.map((w) => w.heapFloor),
    ),
    rssSlopePctPerHour: slopePctPerHour(
      mids,
      windows.map((w) => w.rssMedian),
    ),
    tolerancePct,
    flat:
      windows.length < 2
        ? undefined
        : Math.abs(heapFloorChangePct) <= tolerancePct && Math.abs(rssChangePct) <= tolerancePct,
  };
}

/** Warm-up ends a minute after every bot is in, and never before the first third of the run. */
export function warmUpEndsMs(allInAtMs: number, minutes: number): number {
  return Math.max(allInAtMs + 60_000, (minutes * 60_000) / 3);
}

/** What the soak prints: MB figures, the verdict in words. */
export function describeTrend(trend: MemoryTrend, windowMs: number) {
  const mb = (n: number) => Math.round(n / 1024 / 1024);
  const round = (n: number) => Number(n.toFixed(1));
  return {
    windowMinutes: windowMs / 60_000,
    windowsFromMinute: trend.windows.map((w) => round(w.fromMinute)),
    heapFloorMB: trend.windows.map((w) => mb(w.heapFloor)),
    rssMedianMB: trend.windows.map((w) => mb(w.rssMedian)),
    heapFloorChangePct: round(trend.heapFloorChangePct),
    rssChangePct: round(trend.rssChangePct),
    heapFloorSlopePctPerHour: round(trend.heapFloorSlopePctPerHour),
    rssSlopePctPerHour: round(trend.rssSlopePctPerHour),
    verdict:
      trend.flat === undefined
        ? `too short to judge: needs two ${windowMs / 60_000}-minute windows after warm-up`
        : trend.flat
          ? `flat within ${trend.tolerancePct} %`
          : `NOT flat: moved more than ${trend.tolerancePct} % from the first window to the last`,
  };
}
