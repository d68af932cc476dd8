import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { startServer } from './load/server.ts';

/**
 * The agent dashboard routes under load: the real server in a child process (bench/load/server.ts),
 * `--agents` agents online (each an account with a character, an agent mapping and a live connection
 * that walks now and then), and one dashboard per agent polling its quick actions and goal every
 * `--interval` ms (the real dashboards poll every 5-10 s; the default 1 s is ten times that), with a
 * goal set now and then. Prints p50/p99/max per route over `--duration` seconds.
 *   npm run bench:agents [-- --agents 100 --duration 20 --interval 1000]
 */

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const AGENTS = arg('agents', 100);
const DURATION_S = arg('duration', 20);
const INTERVAL_MS = arg('interval', 1000);
const TICK_MS = arg('tick', 600);

const server = await startServer(root, TICK_MS);
const base = server.base;

async function call(method: string, p: string, token?: string, body?: unknown) {
  const headers: Record<string, string> = {};
  if (token) headers['authorization'] = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${base}${p}`, {
    method,
    headers,
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  if (res.status >= 400) throw new Error(`${method} ${p}: ${res.status} ${text}`);
  return text === '' ? {} : JSON.parse(text);
}

interface Agent {
  token: string;
  agentId: string;
  characterId: string;
  socket?: WebSocket;
  x: number;
  z: number;
}

const samples = new Map<string, number[]>();
const failures = new Map<string, number>();
async function timed(route: string, fn: () => Promise<unknown>) {
  const t0 = performance.now();
  try {
    await fn();
    const list = samples.get(route) ?? [];
    list.push(performance.now() - t0);
    samples.set(route, list);
  } catch {
    failures.set(route, (failures.get(route) ?? 0) + 1);
  }
}

const agents: Agent[] = [];
try {
  console.log(`setting up ${AGENTS} agents...`);
  const setupStart = performance.now();
  for (let i = 0; i < AGENTS; i += 10) {
    await Promise.all(
      Array.from({ length: Math.min(10, AGENTS - i) }, async (_, j) => {
        const { token } = await call('POST', '/api/auth/anonymous');
        const created = await call('POST', '/api/character/create', token, { name: `Bench${i + j}` });
        const characterId = created.character.id as string;
        const m = await call('POST', '/api/agents', token, { characterId });
        const agent: Agent = { token, agentId: m.agentId, characterId, x: 0, z: 0 };
        agents.push(agent);
        const socket = new WebSocket(`${server.wsUrl}?encoding=json`);
        agent.socket = socket;
        await new Promise<void>((resolve, reject) => {
          socket.once('error', reject);
          socket.on('message', (data) => {
            const [event, payload] = JSON.parse(String(data));
            if (event === 'player:sync') {
              agent.x = payload.position.x;
              agent.z = payload.position.z;
              resolve();
            }
          });
          socket.once('open', () =>
            socket.send(JSON.stringify(['authenticate', { authToken: token, characterId }])),
          );
        });
      }),
    );
  }
  console.log(
    `${agents.length} agents online after ${((performance.now() - setupStart) / 1000).toFixed(1)} s`,
  );

  const walker = setInterval(() => {
    for (const a of agents) {
      if (Math.random() < 0.2)
        a.socket?.send(
          JSON.stringify([
            'player:move',
            { x: a.x + Math.floor(Math.random() * 21) - 10, z: a.z + Math.floor(Math.random() * 21) - 10 },
          ]),
        );
    }
  }, 1000);

  const until = performance.now() + DURATION_S * 1000;
  const dashboards = agents.map(async (a, i) => {
    // Spread the dashboards over the interval.
    await new Promise((r) => setTimeout(r, (INTERVAL_MS * i) / agents.length));
    let n = 0;
    while (performance.now() < until) {
      const next = performance.now() + INTERVAL_MS;
      await timed('GET quick-actions', () => call('GET', `/api/agents/${a.agentId}/quick-actions`, a.token));
      await timed('GET goal', () => call('GET', `/api/agents/${a.agentId}/goal`, a.token));
      if (n++ % 5 === 0)
        await timed('POST goal', () =>
          call('POST', `/api/agents/${a.agentId}/goal`, a.token, { type: 'explore' }),
        );
      await new Promise((r) => setTimeout(r, Math.max(0, next - performance.now())));
    }
  });
  await Promise.all(dashboards);
  clearInterval(walker);

  const pct = (sorted: number[], p: number) =>
    sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
  console.log(
    `\n${agents.length} agents online, dashboards every ${INTERVAL_MS} ms for ${DURATION_S} s, tick ${TICK_MS} ms` +
      ` (load average ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}, ${os.cpus().length} cpus)`,
  );
  for (const [route, list] of samples) {
    const sorted = [...list].sort((a, b) => a - b);
    console.log(
      `${route.padEnd(18)} n=${String(sorted.length).padStart(5)}  p50 ${pct(sorted, 50).toFixed(1)} ms` +
        `  p99 ${pct(sorted, 99).toFixed(1)} ms  max ${pct(sorted, 100).toFixed(1)} ms  failed ${failures.get(route) ?? 0}`,
    );
  }
} finally {
  for (const a of agents) a.socket?.close();
  await server.stop();
}
