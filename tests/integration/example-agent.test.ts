import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAgent } from '../../examples/agent/agent.ts';
import { createLogger } from '../../lib/logger.ts';
import { AgentApi, GameClient } from '../../sdk/src/index.ts';
import { REPO_ROOT } from '../../src/server.ts';
import { startWorldServer, type WorldServer } from '../../src/world-server.ts';
import { jsonOf } from '../helpers/http.ts';
import { api as http } from '../helpers/identity-server.ts';
import { testConfig } from '../helpers/server.ts';

/**
 * The example agent (examples/agent) plays against the real server at a short tick: on its own it
 * gathers and banks what it gathered; it follows a goal set over the API, answers its owner's messages,
 * reports progress, and stands still while its goals are paused.
 */

const TICK_MS = 50;
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
    DISABLE_RATE_LIMIT: 'true',
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

const waitFor = async (what: string, cond: () => boolean | Promise<boolean>, timeoutMs = 20_000) => {
  const until = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
};

describe('the example agent', () => {
  it('gathers, banks, explores, answers messages, reports progress, and honours stop and resume', async () => {
    const logs: string[] = [];
    const agent = await startAgent({ server: base, stepMs: 100, bankWhenFree: 15, log: (l) => logs.push(l) });
    const api = new AgentApi(base, agent.token);
    try {
      // On its own: it gathers (xp) and banks what it gathered, keeping its tools.
      await waitFor('xp from gathering', () => agent.stats.xp > 0, 60_000);
      await waitFor('a deposit', () => agent.stats.deposits > 0, 60_000);
      const bank = await jsonOf(
        await http(base, 'GET', `/api/player/${agent.characterId}/bank`, { token: agent.token }),
      );
      expect(bank.bank.length).toBeGreaterThan(0);
      expect(agent.client.world.self?.inventory.some((s) => s?.itemId === 'flint_hatchet')).toBe(true);

      // A goal from the owner: explore; it walks and reports progress.
      await api.setGoal(agent.agentId, { type: 'explore' });
      await waitFor('two walks', () => agent.stats.moves >= 2);
      await waitFor('progress', async () => (await api.goal(agent.agentId)).goal?.progress !== undefined);

      // A message is answered in local chat.
      const heard = agent.client.next('chat:message', 10_000, (m) => m.message.includes('hello agent'));
      await api.message(agent.agentId, 'hello agent');
      expect((await heard).fromId).toBe(agent.characterId);

      // Stop: it stands still, whatever it was doing.
      await api.stop(agent.agentId);
      await agent.client.next('agent:goal', 5000, (g) => g.goalsPaused);
      await new Promise((r) => setTimeout(r, TICK_MS * 4));
      const stopped = (await api.state(agent.agentId)).position;
      const movesAtStop = agent.stats.moves;
      await new Promise((r) => setTimeout(r, TICK_MS * 20));
      expect((await api.state(agent.agentId)).position).toEqual(stopped);
      expect(agent.stats.moves).toBeLessThanOrEqual(movesAtStop + 1);

      // Resume: it picks its own goals again and plays on (gathers or walks).
      const xpAtResume = agent.stats.xp;
      await api.resume(agent.agentId);
      await waitFor(
        'play after resume',
        () => agent.stats.xp > xpAtResume || agent.stats.moves > movesAtStop + 1,
        60_000,
      );
    } finally {
      await agent.stop();
    }
    expect(logs.filter((l) => l.startsWith('step failed'))).toEqual([]);
  });

  it('accepts a trade offered by a player next to it', async () => {
    const agent = await startAgent({ server: base, stepMs: 100, log: () => {} });
    const api = new AgentApi(base, agent.token);
    const trader = await GameClient.connect({ url: `${base.replace('http', 'ws')}/ws`, encoding: 'json' });
    try {
      await api.setGoal(agent.agentId, { type: 'idle' });
      await waitFor('standing idle', async () => (await api.goal(agent.agentId)).goal?.note === 'idle');
      const at = (await api.state(agent.agentId)).position;
      await trader.moveTo(at.x + 1, at.z, { timeoutMs: 15_000 });
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
      const done = trader.next('tradeCompleted', 15_000);
      trader.tradeAddItem(started.tradeId, slot);
      await done;
      await waitFor('the agent counted it', () => agent.stats.tradesAccepted === 1);
      expect(agent.client.world.self?.inventory.some((s) => s?.itemId === offered)).toBe(true);
    } finally {
      await trader.close();
      await agent.stop();
    }
  });
});
