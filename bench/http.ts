import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

/**
 * HTTP throughput of the real server: starts src/main.ts in a child process on a free port (so the
 * load generator does not share its event loop), runs autocannon against /health and /status, prints
 * requests/s and latency percentiles, then stops the server with SIGTERM.
 *   npm run bench:http [-- --duration 10 --connections 50]
 */

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const duration = arg('duration', 10);
const connections = arg('connections', 50);

const child = spawn(path.join(root, 'node_modules', '.bin', 'tsx'), ['src/main.ts'], {
  cwd: root,
  env: { ...process.env, NODE_ENV: 'development', HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info' },
  stdio: ['ignore', 'pipe', 'inherit'],
});

const port = await new Promise<number>((resolve, reject) => {
  let out = '';
  child.stdout.on('data', (d) => {
    out += d;
    const m = /"port":(\d+),"msg":"ready"/.exec(out);
    if (m) resolve(Number(m[1]));
  });
  child.on('exit', (code) => reject(new Error(`server exited (${code}) before it was ready:\n${out}`)));
});

try {
  for (const p of ['/health', '/status']) {
    const r = await autocannon({ url: `http://127.0.0.1:${port}${p}`, connections, duration });
    const non2xx = r.non2xx + r.errors + r.timeouts;
    console.log(
      `${p.padEnd(8)} ${Math.round(r.requests.average).toLocaleString('en')} req/s` +
        `  latency p50 ${r.latency.p50} ms  p99 ${r.latency.p99} ms  max ${r.latency.max} ms` +
        `  (${connections} connections, ${duration} s, ${r.requests.total} requests, ${non2xx} failed)`,
    );
  }
} finally {
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
}
