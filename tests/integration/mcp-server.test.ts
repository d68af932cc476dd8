import { spawn } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../lib/repo-root.ts';
import { GameClient } from '../../sdk/src/index.ts';
import { createMcpServer, GameSession, serveHttp } from '../../sdk/src/mcp/index.ts';
import { type DefaultWorld, startDefaultWorld } from '../helpers/default-world.ts';

/**
 * The SDK's MCP server against the real game server: its transports (stdio through the CLI, streamable
 * HTTP with its bearer token and Host check), and its tools' answers: refusals carry the server's error
 * code, a walk reports progress and tells when another command stopped it, wait_for hears chat, the bank
 * and a trade with another player work through the tools.
 */

const TOOLS = [
  'bank',
  'chat',
  'dialogue',
  'go_to',
  'interact',
  'look',
  'make',
  'quests',
  'shop',
  'trade',
  'use_item',
  'wait_for',
];

let world: DefaultWorld;
const cleanup: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  world = await startDefaultWorld('mcp-server', { TICK_MS: '50' });
});

afterAll(async () => {
  for (const c of cleanup.reverse()) await c().catch(() => {});
  await world?.stop();
});

const textOf = (r: { [key: string]: unknown }) =>
  ((r['content'] ?? []) as { text: string }[]).map((c) => c.text).join('\n');

/** An MCP client on a new character, in memory. */
async function player(): Promise<{ client: Client; session: GameSession }> {
  const session = await GameSession.open({ url: world.wsUrl });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await createMcpServer(session).connect(a);
  const client = new Client({ name: 'test', version: '1' });
  await client.connect(b);
  cleanup.push(
    () => client.close(),
    () => session.close(),
  );
  return { client, session };
}

const call = (client: Client, name: string, args: Record<string, unknown> = {}, onprogress?: () => void) =>
  client.callTool({ name, arguments: args }, undefined, {
    timeout: 60_000,
    ...(onprogress ? { onprogress } : {}),
  });

describe('MCP transports', () => {
  it('stdio: `hyperscape-sdk mcp` lists the tools, answers look and the character sheet', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ['--import', 'tsx', path.join(REPO_ROOT, 'sdk/src/cli.ts'), 'mcp', '--url', world.wsUrl],
      cwd: REPO_ROOT,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'stdio-test', version: '1' });
    await client.connect(transport);
    cleanup.push(() => client.close());
    expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(TOOLS);
    const look = await call(client, 'look');
    expect(textOf(look)).toMatch(/^You: \S+ at \d+,\d+/);
    const sheet = await client.readResource({ uri: 'game://character' });
    const me = JSON.parse((sheet.contents[0] as { text: string }).text) as {
      name: string;
      inventory: unknown[];
    };
    expect(textOf(look)).toContain(me.name);
    expect(me.inventory).toHaveLength(28);
    expect((await client.listResources()).resources.map((r) => r.uri).sort()).toEqual([
      'game://character',
      'game://map',
      'game://quests',
    ]);
    await client.close();
  });

  it('streamable HTTP: plays with the bearer token, refuses without it and for another Host', async () => {
    const session = await GameSession.open({ url: world.wsUrl });
    const served = await serveHttp(session, { port: 0, authToken: 'mcp-secret' });
    cleanup.push(
      () => served.close(),
      () => session.close(),
    );
    const bare = await fetch(served.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} }),
    });
    expect(bare.status).toBe(401);
    const rebound = await new Promise<number>((resolve, reject) => {
      const req = http.request(
        served.url,
        {
          method: 'POST',
          headers: {
            host: `evil.example:${served.port}`,
            authorization: 'Bearer mcp-secret',
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
          },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end(
        JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: {
            protocolVersion: '2025-06-18',
            capabilities: {},
            clientInfo: { name: 'x', version: '1' },
          },
        }),
      );
    });
    expect(rebound).toBe(403);
    const client = new Client({ name: 'http-test', version: '1' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(served.url), {
        requestInit: { headers: { authorization: 'Bearer mcp-secret' } },
      }),
    );
    cleanup.push(() => client.close());
    expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(TOOLS);
    expect(textOf(await call(client, 'look'))).toContain(session.game.world.self?.name as string);
    await client.close();
  });
});

describe('the MCP command line', () => {
  it('refuses to serve HTTP beyond the loopback without a bearer token, before connecting', async () => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(REPO_ROOT, 'sdk/src/cli.ts'), 'mcp', '--http', '0', '--host', '0.0.0.0'],
      { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let err = '';
    child.stderr.on('data', (d: Buffer) => {
      err += d.toString();
    });
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(2);
    expect(err).toContain('give --auth-token');
  });
});

describe('MCP tools', () => {
  it('a refusal carries the server error code: fishing a pool above the level of a new character', async () => {
    const { client } = await player();
    const r = await call(client, 'interact', { verb: 'gather', target: 'spot_river' });
    expect(textOf(r)).toMatch(/Gathering refused: LEVEL_TOO_LOW: .*10/);
    expect(r.isError).toBe(true);
  });

  it('go_to reports progress, arrives, and says when another command stopped the walk', async () => {
    const { client, session } = await player();
    const from = session.game.world.position as { x: number; z: number };
    let notes = 0;
    const arrived = await call(client, 'go_to', { x: from.x, z: from.z - 10 }, () => notes++);
    expect(textOf(arrived)).toContain(`Arrived at ${from.x},${from.z - 10}`);
    expect(notes).toBeGreaterThan(0);
    // A long walk, cut short by a walk elsewhere.
    const long = call(client, 'go_to', { x: from.x, z: from.z - 30 });
    await session.game.next('world:update', 5000, (u) =>
      u.entities.some((e) => e.id === session.game.world.selfId && (e.moving ?? 0) > 0),
    );
    const other = call(client, 'go_to', { x: from.x + 2, z: from.z - 10 });
    const stopped = await long;
    expect(stopped.isError).toBe(true);
    expect(textOf(stopped)).toContain('Stopped at');
    expect(textOf(await other)).toContain(`Arrived at ${from.x + 2},${from.z - 10}`);
  });

  it('wait_for hears a chat line from a player nearby; chat speaks, or says why it could not', async () => {
    const { client, session } = await player();
    const other = await GameClient.connect({ url: world.wsUrl, encoding: 'json' });
    cleanup.push(() => other.close());
    const heard = other.next('chat:message', 10_000, (m) => m.message === 'hello from mcp');
    expect(textOf(await call(client, 'chat', { message: 'hello from mcp' }))).toContain(
      'You said: hello from mcp',
    );
    expect((await heard).fromId).toBe(session.game.characterId);
    const waiting = call(client, 'wait_for', { event: 'chat', timeout_s: 20 });
    await new Promise((r) => setTimeout(r, 300));
    other.say('hi there agent');
    expect(textOf(await waiting)).toMatch(/Happened: \[local\] \S+: hi there agent/);
    // A line heard since the last answer is told at once.
    const early = session.game.next('chat:message', 10_000, (m) => m.message === 'said before');
    other.say('said before');
    await early;
    // (Nothing else is said: a wait counting only from now would answer that nothing happened.)
    expect(textOf(await call(client, 'wait_for', { event: 'chat', timeout_s: 5 }))).toMatch(
      /Happened: \[local\] \S+: said before/,
    );
    // A private message to nobody is refused with the server's code.
    const refused = await call(client, 'chat', { message: 'psst', to: 'NoSuchPlayerHere' });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/Not sent: NOT_FOUND: /);
  });

  it('bank deposits all but what it keeps and withdraws it again', async () => {
    const { client, session } = await player();
    const inv = session.game.world.self?.inventory ?? [];
    const held = inv.filter((i) => i !== null).map((i) => i?.itemId as string);
    expect(held.length).toBeGreaterThan(1);
    const [keep, ...rest] = held as [string, ...string[]];
    const deposited = textOf(await call(client, 'bank', { action: 'deposit_all', keep }));
    expect(deposited).toContain('Done:');
    const after = (session.game.world.self?.inventory ?? []).filter((i) => i !== null).map((i) => i?.itemId);
    expect(after).toEqual([keep]);
    expect(session.bank?.map((b) => b.itemId)).toEqual(expect.arrayContaining(rest));
    const back = textOf(await call(client, 'bank', { action: 'withdraw', item: rest[0] }));
    expect(back).toContain('Done: took');
    expect(session.game.world.self?.inventory.some((i) => i?.itemId === rest[0])).toBe(true);
  });

  it('trade: accepts a request from another player and completes it through the tools', async () => {
    const { client, session } = await player();
    const other = await GameClient.connect({ url: world.wsUrl, encoding: 'json' });
    cleanup.push(() => other.close());
    const me = session.game.world.position as { x: number; z: number };
    await other.moveTo(me.x + 1, me.z, { timeoutMs: 15_000 });
    const offered = other.world.self?.inventory.findIndex((i) => i !== null) ?? -1;
    const offeredItem = other.world.self?.inventory[offered]?.itemId as string;
    other.on('tradeStarted', (t) => other.tradeAddItem(t.tradeId, offered));
    other.on('tradeUpdated', (t) => {
      if (t.myOffer.items.length > 0 && !t.myOffer.accepted) other.tradeAccept(t.tradeId);
    });
    other.on('tradeConfirmScreen', (t) => {
      if (!t.myOffer.accepted) other.tradeAccept(t.tradeId);
    });
    const asked = call(client, 'wait_for', { event: 'trade', timeout_s: 20 });
    other.send('tradeRequest', { targetPlayerId: session.game.characterId as string });
    expect(textOf(await asked)).toContain('wants to trade with you');
    await call(client, 'trade', { action: 'accept_request' });
    // Their offer arrives, then both accept the offer screen and the confirmation screen.
    for (let i = 0; i < 20 && !(session.trade?.theirs?.items.length ?? 0); i++)
      await new Promise((r) => setTimeout(r, 100));
    expect(textOf(await call(client, 'trade', { action: 'status' }))).toContain('They offer: [0] 1');
    const done = session.game.next('tradeCompleted', 15_000);
    await call(client, 'trade', { action: 'accept' });
    for (let i = 0; i < 50 && session.trade?.stage !== 'confirm'; i++)
      await new Promise((r) => setTimeout(r, 100));
    await call(client, 'trade', { action: 'accept' });
    expect((await done).receivedItems.map((i) => i.itemId)).toEqual([offeredItem]);
  });

  it('dialogue opens a shop; shop buys, closes; use_item eats what was bought', async () => {
    const { client, session } = await player();
    const talk = textOf(await call(client, 'interact', { verb: 'talk', target: 'Trader Odalys' }));
    expect(talk).toMatch(/Trader Odalys says: ".+"\nAnswers/);
    const chose = textOf(await call(client, 'dialogue', { choose: 'wares' }));
    expect(chose).toContain('The shop "Odalys\' General Goods" is open');
    const coins = session.game.world.self?.coins as number;
    const bought = textOf(await call(client, 'shop', { action: 'buy', item: 'loaf' }));
    expect(bought).toMatch(new RegExp(`Done: \\+1 Barley Loaf; coins ${coins} -> \\d+`));
    expect(textOf(await call(client, 'shop', { action: 'close' }))).toContain('Shop closed.');
    const ate = await call(client, 'use_item', { item: 'Barley Loaf' });
    expect(textOf(ate)).toMatch(/Used it: items -1 Barley Loaf/);
  });

  it('interact attack fights a monster until it dies', async () => {
    const { client } = await player();
    const fought = textOf(
      await call(client, 'interact', { verb: 'attack', target: 'marsh_rat', timeout_s: 60 }),
    );
    expect(fought).toMatch(/You killed it \(\d+ swings, \d+ damage dealt, \d+ taken\)/);
    expect(fought).toMatch(/\+\d+ attack xp/);
  });
});
