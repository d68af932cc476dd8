import { BENCH_METRICS_TOKEN } from './server.ts';

/**
 * Reads the server's own figures: /status (tick number, last and p99 tick time, players online, and the
 * phase split when the status body carries it) and /metrics (Prometheus text: tick and phase histograms,
 * messages and bytes out, resident memory).
 */

export interface StatusSample {
  tick: number;
  lastMs: number;
  p99Ms: number;
  p50Ms?: number;
  playersOnline: number;
  phases?: Record<string, { lastMs: number; p50Ms: number; p99Ms: number }>;
}

export async function readStatus(base: string): Promise<StatusSample | null> {
  try {
    const res = await fetch(`${base}/status`);
    const body = (await res.json()) as {
      tick: {
        number: number;
        lastMs: number;
        p99Ms: number;
        p50Ms?: number;
        phases?: StatusSample['phases'];
      };
      playersOnline: number;
    };
    return {
      tick: body.tick.number,
      lastMs: body.tick.lastMs,
      p99Ms: body.tick.p99Ms,
      p50Ms: body.tick.p50Ms,
      playersOnline: body.playersOnline,
      phases: body.tick.phases,
    };
  } catch {
    return null;
  }
}

/** name{labels} -> value for every sample line of a Prometheus text exposition. */
export type Metrics = Map<string, number>;

export async function readMetrics(base: string): Promise<Metrics> {
  const out: Metrics = new Map();
  try {
    const headers = { Authorization: `Bearer ${BENCH_METRICS_TOKEN}` };
    const text = await (await fetch(`${base}/metrics`, { headers })).text();
    for (const line of text.split('\n')) {
      if (line.startsWith('#') || line.trim() === '') continue;
      const i = line.lastIndexOf(' ');
      out.set(line.slice(0, i), Number(line.slice(i + 1)));
    }
  } catch {
    // server gone: empty
  }
  return out;
}

/** Sum over every series of a metric whose name (before labels) matches one of the names. */
export function total(m: Metrics, ...names: string[]): number {
  let sum = 0;
  for (const [k, v] of m) {
    const name = k.split('{')[0];
    if (names.includes(name as string)) sum += v;
  }
  return sum;
}

/** Quantile of a Prometheus histogram over a window (difference of two scrapes), as a bucket bound. */
export function histogramQuantile(
  before: Metrics,
  after: Metrics,
  name: string,
  q: number,
  labels = '',
): number {
  const buckets: { le: number; count: number }[] = [];
  for (const [k, v] of after) {
    if (!k.startsWith(`${name}_bucket{`)) continue;
    if (labels !== '' && !k.includes(labels)) continue;
    const le = /le="([^"]+)"/.exec(k)?.[1];
    if (le === undefined) continue;
    buckets.push({ le: le === '+Inf' ? Infinity : Number(le), count: v - (before.get(k) ?? 0) });
  }
  buckets.sort((a, b) => a.le - b.le);
  const n = buckets.at(-1)?.count ?? 0;
  if (n === 0) return NaN;
  for (const b of buckets) if (b.count >= q * n) return b.le;
  return Infinity;
}

/** Mean of a histogram (or summary) over the window, from its _sum and _count series. */
export function windowMean(before: Metrics, after: Metrics, name: string, labels = ''): number {
  const pick = (m: Metrics, suffix: string) => {
    let s = 0;
    for (const [k, v] of m) {
      if (k.split('{')[0] === `${name}_${suffix}` && (labels === '' || k.includes(labels))) s += v;
    }
    return s;
  };
  const count = pick(after, 'count') - pick(before, 'count');
  return count > 0 ? (pick(after, 'sum') - pick(before, 'sum')) / count : NaN;
}

/** Phase names present in the phase histogram. */
export function phases(m: Metrics): string[] {
  const names = new Set<string>();
  for (const k of m.keys()) {
    const p = /^game_tick_phase_duration_seconds_count\{phase="([^"]+)"\}/.exec(k)?.[1];
    if (p) names.add(p);
  }
  return [...names];
}
