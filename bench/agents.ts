import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { exportSPKI, generateKeyPair, SignJWT } from 'jose';
import WebSocket from 'ws';
import { startServer } from './load/server.ts';

/**
 * The agent dashboard routes under load, with the rate limits on: the real server in a child process
 * (bench/load/server.ts), `--agents` agents online from this one address (each an account with a
 * character, an agent mapping and a live connection that walks now and then), and one dashboard per
 * agent, on the agent's token, polling its quick actions and goal every `--interval` ms (default 5 s,
 * the documented rate; dashboards poll every 5-10 s), setting a goal every fifth round, and retrying a
 * failed call after 1, 2 and 4 s. Prints per route p50/p99/max and the answers by status; a 429 is
 * what must never happen (REST budgets are per token, so 100 agents behind one address never starve
 * each other).
 *
 * The accounts come from an identity provider the bench plays (a key pair of its own; IDP_* set on the
 * server), as in a deployment with one: a provider token is valid at once, so setting up 100 agents
 * takes no anonymous sign-ups (those are 10 a minute per address, by design).
 *   npm run bench:agents [-- --agents 100 --duration 120 --interval 5000 --server-root <checkout>]
 */

/** `--server-root <checkout>` runs another checkout's server (the code before a change, for a before/after figure). */
const serverRootAt = process.argv.indexOf('--server-root');
const root =
  serverRootAt >= 0
    ? path.resolve(process.argv[serverRootAt + 1] ?? '.')
    : path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const AGENTS = arg('agents', 100);
const DURATION_S = arg('duration', 120);
const INTERVAL_MS = arg('interval', 5000);
const TICK_MS = arg('tick', 600);
/** Retries of a failed dashboard call, after 1, 2 and 4 s. */
const RETRY_DELAYS_MS = [1000, 2000, 4000];

const IDP_APP_ID = 'bench-agents-app';
const IDP_ISSUER = 'bench-agents-idp';
const idp = await generateKeyPair('ES256');
const idpToken = (sub: string) => {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({})
    .setProtectedHeader({ alg: 'ES256', typ: 'JWT' })
    .setSubject(sub)
    .setAudience(IDP_APP_ID)
    .setIssuer(IDP_ISSUER)
    .setIssuedAt(now)
    .setExpirationTime(now + 3600)
    .sign(idp.privateKey);
};

const server = await startServer(root, TICK_MS, {
  DISABLE_RATE_LIMIT: 'false',
  IDP_APP_ID,
  PUBLIC_IDP_APP_ID: IDP_APP_ID,
  IDP_ISSUER,
  IDP_VERIFICATION_KEY: await exportSPKI(idp.publicKey),
});
const base = server.base;

/** Answers by route and status, every try counted (a 429 among them is a failure of the budgets). */
const statuses = new Map<string, Map<number, number>>();
class HttpStatusError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

async function call(method: string, p: string, token?: string, body?: unknown, route?: string) {
  const headers: Record<string, string> = {};
  if (token) headers['authorization'] = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${base}${p}`, {
    method,
    headers,
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  const label = route ?? `${method} ${p}`;
  const byStatus = statuses.get(label) ?? new Map<number, number>();
  byStatus.set(res.status, (byStatus.get(res.status) ?? 0) + 1);
  statuses.set(label, byStatus);
  if (res.status >= 400) throw new HttpStatusError(res.status, `${method} ${p}: ${res.status} ${text}`);
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
/** One dashboard call as a dashboard makes it: timed per try, retried after 1, 2 and 4 s on failure. */
async function timed(route: string, fn: () => Promise<unknown>) {
  for (let attempt = 0; ; attempt++) {
    const t0 = performance.now();
    try {
      await fn();
      const list = samples.get(route) ?? [];
      list.push(performance.now() - t0);
      samples.set(route, list);
      return;
    } catch {
      const delay = RETRY_DELAYS_MS[attempt];
      if (delay === undefined) {
        failures.set(route, (failures.get(route) ?? 0) + 1);
        return;
      }
      await new Promise((r) => setTimeout(r, delay));
    }
  }
}

const agents: Agent[] = [];
try {
  console.log(`setting up ${AGENTS} agents...`);
  const setupStart = performance.now();
  for (let i = 0; i < AGENTS; i += 10) {
    await Promise.all(
      Array.from({ length: Math.min(10, AGENTS - i) }, async (_, j) => {
        const token = await idpToken(`bench-agent-${i + j}`);
        const created = await call(
          'POST',
          '/api/character/create',
          token,
          { name: `Bench${i + j}` },
          'POST character',
        );
        const characterId = created.character.id as string;
        const m = await call('POST', '/api/agents', token, { characterId }, 'POST agents');
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
      await timed('GET quick-actions', () =>
        call('GET', `/api/agents/${a.agentId}/quick-actions`, a.token, undefined, 'GET quick-actions'),
      );
      await timed('GET goal', () =>
        call('GET', `/api/agents/${a.agentId}/goal`, a.token, undefined, 'GET goal'),
      );
      if (n++ % 5 === 0)
        await timed('POST goal', () =>
          call('POST', `/api/agents/${a.agentId}/goal`, a.token, { type: 'explore' }, 'POST goal'),
        );
      await new Promise((r) => setTimeout(r, Math.max(0, next - performance.now())));
    }
  });
  await Promise.all(dashboards);
  clearInterval(walker);

  const pct = (sorted: number[], p: number) =>
    sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
  console.log(
    `\n${agents.length} agents online from one address, rate limits on, dashboards every ${INTERVAL_MS} ms` +
      ` (retries after ${RETRY_DELAYS_MS.join(', ')} ms) for ${DURATION_S} s, tick ${TICK_MS} ms` +
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
  let refused = 0;
  console.log('\nanswers by status (every try, set-up included):');
  for (const [route, byStatus] of statuses) {
    refused += byStatus.get(429) ?? 0;
    const list = [...byStatus].map(([status, n]) => `${status}: ${n}`).join(', ');
    console.log(`${route.padEnd(22)} ${list}`);
  }
  console.log(`responses 429: ${refused}`);
  if (refused > 0) process.exitCode = 1;
} finally {
  for (const a of agents) a.socket?.close();
  await server.stop();
}
