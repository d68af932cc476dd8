import fs from 'node:fs';
import { describeTrend, type MemorySample, memoryTrend, warmUpEndsMs } from './memory-trend.ts';

/**
 * npm run soak:analyze -- <log>: the memory trend of a saved `npm run soak` log (its `t=` sample
 * lines, MB resolution), judged as the soak judges it at the end. For logs of runs made before the
 * soak printed the trend itself, and to try another window (SOAK_WINDOW_MINUTES).
 */

const file = process.argv[2];
if (!file) {
  console.error('usage: npm run soak:analyze -- <soak log>');
  process.exit(2);
}
const text = fs.readFileSync(file, 'utf8');
const header = /soak: (\d+) bots .* for (\d+(?:\.\d+)?) min/.exec(text);
if (!header) {
  console.error(`${file}: no "soak: N bots ... for M min" line; is it a soak log?`);
  process.exit(2);
}
const bots = Number(header[1]);
const minutes = Number(header[2]);
const windowMs = Number(process.env['SOAK_WINDOW_MINUTES'] ?? 5) * 60_000;
const samples: (MemorySample & { bots: number })[] = [];
for (const m of text.matchAll(/^t=(\d+)s rss=(\d+)MB heap=(\d+)MB players=\d+ bots=(\d+)/gm)) {
  const MB = 1024 * 1024;
  samples.push({
    atMs: Number(m[1]) * 1000,
    rss: Number(m[2]) * MB,
    heapUsed: Number(m[3]) * MB,
    bots: Number(m[4]),
  });
}
const allInAt = samples.find((s) => s.bots >= bots)?.atMs ?? minutes * 60_000;
const warmFrom = warmUpEndsMs(allInAt, minutes);
const warm = samples.filter((s) => s.atMs > warmFrom && s.atMs < minutes * 60_000);
const memory = describeTrend(memoryTrend(warm, windowMs), windowMs);
console.log(
  JSON.stringify(
    { file, bots, minutes, warmFromMinute: Number((warmFrom / 60_000).toFixed(1)), memory },
    null,
    2,
  ),
);
