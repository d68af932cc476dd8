import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningAgent, startAgent } from '../../examples/agent/agent.ts';
import { createLogger } from '../../lib/logger.ts';
import { AgentApi, GameClient } from '../../sdk/src/index.ts';
import { REPO_ROOT } from '../../src/server.ts';
import { startWorldServer, type WorldServer } from '../../src/world-server.ts';
import { jsonOf } from '../helpers/http.ts';
import { api as http } from '../helpers/identity-server.ts';
import { testConfig } from '../helpers/server.ts';

/**
 * The example agent (examples/agent) plays against the real server at the real 600 ms tick, with the
 * rate limits on: on its own it walks to the nearest birch trees, gathers, makes arrow shafts of the
 * logs and banks them, keeping its tools; it answers its owner's messages, stands still while its goals
 * are paused and plays on after resume, follows a goal set over the API and accepts a trade. It reads
 * the agent API only to find places beyond view: a handful of calls, never a polling loop.
 */

const TICK_MS = 600;
let worldDir: string;
let srv: WorldServer;
let base: string;

beforeAll(async () => {
  worldDir = mkdtempSync(path.join(os.tmpdir(), 'example-agent-'));
  const config = testConfig({
    WORLD: worldDir,
    TICK_MS: String(TICK_MS),
    JWT_SECRET: 'integration-test-secret-0123456789-abcdefghij',
    ADMIN_CODE: 'test-admin-code',
  });
  srv = await startWorldServer(config, createLogger(config), {
    manifestsDir: path.join(REPO_ROOT, 'world', 'assets', 'manifests'),
    publicDir: '/nonexistent/public',
  });
  base = `http://127.0.0.1:${srv.port}`;
});

afterAll(async () => {
  await srv?.stop();
  rmSync(worldDir, { recursive: true, force: true });
});

/** Waits on the agent's own counters (no request to the server), checked at every frame it receives. */
const until = (agent: RunningAgent, what: string, cond: () => boolean, timeoutMs: number) =>
  new Promise<void>((resolve, reject) => {
    if (cond()) return resolve();
    const timer = setTimeout(() => {
      off();
      reject(new Error(`timed out waiting for ${what}: ${JSON.stringify(agent.stats)}`));
    }, timeoutMs);
    const off = agent.client.on('*', () => {
      if (!cond()) return;
      clearTimeout(timer);
      off();
      resolve();
    });
  });

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('the example agent at the real tick', () => {
  it('gathers, makes and banks on its own, answers messages, and honours stop and resume', async () => {
    const logs: string[] = [];
    const agent = await startAgent({ server: base, log: (l) => logs.push(l) });
    const api = new AgentApi(base, agent.token);
    try {
      // A whole cycle: walk to the trees, gather a batch, make arrow shafts, bank them.
      await until(agent, 'a gathered batch made into arrow shafts', () => agent.stats.made > 0, 120_000);
      expect(agent.stats.xp).toBeGreaterThan(0);
      await until(agent, 'a deposit', () => agent.stats.deposits > 0, 60_000);
      const bank = await jsonOf(
        await http(base, 'GET', `/api/player/${agent.characterId}/bank`, { token: agent.token }),
      );
      expect(JSON.stringify(bank.bank)).toContain('arrow_shaft');
      const inventory = agent.client.world.self?.inventory ?? [];
      for (const tool of ['flint_hatchet', 'knife'])
        expect(inventory.some((s) => s?.itemId === tool)).toBe(true);

      // A message is answered in local chat.
      const heard = agent.client.next('chat:message', 10_000, (m) => m.message.includes('hello agent'));
      await api.message(agent.agentId, 'hello agent');
      expect((await heard).fromId).toBe(agent.characterId);

      // Stop: it stands still, whatever it was doing.
      const paused = agent.client.next('agent:goal', 5000, (g) => g.goalsPaused);
      await api.stop(agent.agentId);
      await paused;
      await sleep(TICK_MS * 2);
      const stoppedAt = { ...agent.client.world.position };
      const xpAtStop = agent.stats.xp;
      await sleep(TICK_MS * 8);
      expect(agent.client.world.position).toEqual(stoppedAt);
      expect(agent.stats.xp).toBe(xpAtStop);

      // Resume: it plays its own cycle again.
      const moves = agent.stats.moves;
      await api.resume(agent.agentId);
      await until(
        agent,
        'play after resume',
        () => agent.stats.xp > xpAtStop || agent.stats.moves > moves,
        60_000,
      );
      // It found the trees and the bank through the agent API a few times, never polling it.
      expect(agent.stats.apiCalls).toBeLessThanOrEqual(5);
    } finally {
      await agent.stop();
    }
    expect(logs.filter((l) => l.startsWith('step failed'))).toEqual([]);
  }, 200_000);

  it("follows its owner's goal and accepts a trade offered by a player next to it", async () => {
    const agent = await startAgent({ server: base, log: () => {} });
    const api = new AgentApi(base, agent.token);
    const trader = await GameClient.connect({ url: `${base.replace('http', 'ws')}/ws`, encoding: 'json' });
    try {
      await api.setGoal(agent.agentId, { type: 'idle' });
      await sleep(TICK_MS * 3);
      expect((await api.goal(agent.agentId)).goal).toMatchObject({ type: 'idle', note: 'idle' });
      const at = agent.client.world.position!;
      await trader.moveTo(at.x + 1, at.z, { timeoutMs: 30_000 });
      const started = await trader.tradeRequest(agent.characterId, 10_000);
      const slot = trader.world.self?.inventory.findIndex((s) => s !== null) ?? -1;
      expect(slot).toBeGreaterThanOrEqual(0);
      const offered = trader.world.self?.inventory[slot]?.itemId;
      trader.on('tradeUpdated', (t) => {
        if (t.theirOffer.accepted && !t.myOffer.accepted) trader.tradeAccept(t.tradeId);
      });
      trader.on('tradeConfirmScreen', (t) => {
        if (!t.myOffer.accepted) trader.tradeAccept(t.tradeId);
      });
      const done = trader.next('tradeCompleted', 30_000);
      trader.tradeAddItem(started.tradeId, slot);
      await done;
      await until(agent, 'the agent counted it', () => agent.stats.tradesAccepted === 1, 10_000);
      expect(agent.client.world.self?.inventory.some((s) => s?.itemId === offered)).toBe(true);
    } finally {
      await trader.close();
      await agent.stop();
    }
  }, 120_000);
});
