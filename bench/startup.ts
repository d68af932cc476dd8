import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Start-up time (issue 27): `npm start` on the embedded defaults (PGlite) until `/health` answers 200,
 * for a new data directory (first start) and for the same one again (second start: the everyday case),
 * then Ctrl-C as a terminal sends it (SIGINT to npm, tsx and node at once: the whole process group),
 * which must end the group with exit code 0.
 *
 *   npm run bench:startup                          # 5 rounds of this checkout
 *   npm run bench:startup -- --vs /path/to/other   # interleaved with another checkout, round by round
 *   ROUNDS=10 npm run bench:startup
 *
 * Time is from spawning npm to the first 200 of /health (polled every 20 ms). The client build check of
 * npm start's prestart is skipped (SKIP_CLIENT_BUILD=1): a stale build would be rebuilt and measured.
 */

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ROUNDS = Number(process.env['ROUNDS'] ?? 5);
const vsIndex = process.argv.indexOf('--vs');
const VS = vsIndex > 0 ? path.resolve(process.argv[vsIndex + 1] ?? '') : undefined;

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === 'object' && addr ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Run {
  healthMs: number;
  stopMs: number;
  exitCode: number | null;
}

function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

async function startOnce(repo: string, dataDir: string): Promise<Run> {
  const port = await freePort();
  const started = performance.now();
  const child: ChildProcess = spawn('npm', ['start', '--silent'], {
    cwd: repo,
    detached: true, // its own process group, as a terminal's foreground job
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      PGLITE_DATA_DIR: dataDir,
      PORT: String(port),
      METRICS_PORT: '0',
      HOST: '127.0.0.1',
      SKIP_CLIENT_BUILD: '1',
      LOG_LEVEL: 'warn',
    },
  });
  let out = '';
  const keep = (d: Buffer) => {
    out = (out + d.toString()).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const pgid = child.pid as number;
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`npm start exited during start-up:\n${out}`);
      if (performance.now() - started > 120_000) throw new Error(`no /health within 120 s:\n${out}`);
      const ok = await fetch(`http://127.0.0.1:${port}/health`, { signal: AbortSignal.timeout(1000) }).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) break;
      await sleep(20);
    }
  } catch (err) {
    if (groupAlive(pgid)) process.kill(-pgid, 'SIGKILL');
    throw err;
  }
  const healthMs = performance.now() - started;
  // Ctrl-C: the terminal signals every process of the foreground group at once.
  const stopAt = performance.now();
  process.kill(-pgid, 'SIGINT');
  const exitCode = await exited;
  while (groupAlive(pgid)) {
    if (performance.now() - stopAt > 30_000) {
      process.kill(-pgid, 'SIGKILL');
      throw new Error(`the server outlived npm after SIGINT:\n${out}`);
    }
    await sleep(20);
  }
  return { healthMs, stopMs: performance.now() - stopAt, exitCode };
}

interface Side {
  name: string;
  repo: string;
  first: Run[];
  second: Run[];
}

function stats(xs: number[]): string {
  const s = [...xs].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))] as number;
  return `median ${Math.round(at(0.5))} ms (min ${Math.round(s[0] as number)}, max ${Math.round(s[s.length - 1] as number)})`;
}

async function main(): Promise<void> {
  const sides: Side[] = [{ name: 'this', repo: REPO, first: [], second: [] }];
  if (VS !== undefined) sides.push({ name: 'vs', repo: VS, first: [], second: [] });
  console.log(`start-up: ${ROUNDS} rounds, ${sides.map((s) => `${s.name}=${s.repo}`).join(', ')}`);
  for (let round = 1; round <= ROUNDS; round++) {
    // Alternate which side goes first: a machine that speeds up or slows down favours neither.
    const order = round % 2 === 1 ? sides : [...sides].reverse();
    for (const side of order) {
      const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-startup-'));
      try {
        const first = await startOnce(side.repo, dataDir);
        const second = await startOnce(side.repo, dataDir);
        side.first.push(first);
        side.second.push(second);
        console.log(
          `round ${round} ${side.name}: first start ${Math.round(first.healthMs)} ms, second ${Math.round(second.healthMs)} ms; ` +
            `Ctrl-C ${Math.round(first.stopMs)}/${Math.round(second.stopMs)} ms, exit ${first.exitCode}/${second.exitCode}`,
        );
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    }
  }
  for (const side of sides) {
    const codes = [...side.first, ...side.second].map((r) => r.exitCode);
    console.log(
      `${side.name}: first start ${stats(side.first.map((r) => r.healthMs))}; ` +
        `second start ${stats(side.second.map((r) => r.healthMs))}; ` +
        `Ctrl-C exit codes ${[...new Set(codes)].join(',')}, stop ${stats([...side.first, ...side.second].map((r) => r.stopMs))}`,
    );
  }
  const bad = sides.some((s) => [...s.first, ...s.second].some((r) => r.exitCode !== 0));
  if (bad) process.exitCode = 1;
}

await main();
