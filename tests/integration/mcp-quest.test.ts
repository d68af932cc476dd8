import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMcpServer, GameSession, type QuestLog, type QuestView } from '../../sdk/src/mcp/index.ts';
import { type DefaultWorld, startDefaultWorld } from '../helpers/default-world.ts';

/**
 * Proof that an agent can play through the MCP server: a scripted policy (no LLM) drives it with the MCP
 * SDK's own Client, as an LLM would, and completes the default world's first quest from a new character
 * at the real tick (600 ms). The policy knows no quest: it reads the quest log resource and acts by the
 * current stage's type (dialogue, gather, deliver, kill), finding ids with `look`.
 */

const QUEST = 'first_catch';
const TICK_MS = 600;
let world: DefaultWorld;
let session: GameSession;
let client: Client;

beforeAll(async () => {
  world = await startDefaultWorld('mcp-quest', { TICK_MS: String(TICK_MS) });
  session = await GameSession.open({ url: world.wsUrl });
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  await createMcpServer(session).connect(serverSide);
  client = new Client({ name: 'scripted-policy', version: '1.0.0' });
  await client.connect(clientSide);
});

afterAll(async () => {
  await client?.close();
  await session?.close();
  await world?.stop();
});

/** The policy: tool calls through the MCP client, counted. */
class Policy {
  toolCalls = 0;
  resourceReads = 0;
  progressNotes = 0;
  readonly transcript: string[] = [];

  async tool(name: string, args: Record<string, unknown>): Promise<string> {
    this.toolCalls++;
    const r = await client.callTool({ name, arguments: args }, undefined, {
      timeout: 120_000,
      resetTimeoutOnProgress: true,
      onprogress: () => {
        this.progressNotes++;
      },
    });
    const text = (r.content as { type: string; text: string }[]).map((c) => c.text).join('\n');
    this.transcript.push(`> ${name} ${JSON.stringify(args)}${r.isError ? ' [error]' : ''}\n${text}`);
    if (r.isError) throw new Error(`${name} failed:\n${this.transcript.slice(-3).join('\n\n')}`);
    return text;
  }

  async resource<T>(uri: string): Promise<T> {
    this.resourceReads++;
    const r = await client.readResource({ uri });
    return JSON.parse((r.contents[0] as { text: string }).text) as T;
  }

  /** The id `look` gives the nearest entity of a manifest id (the `[id]` on its line). */
  async findId(manifestId: string, kind: string): Promise<string> {
    const text = await this.tool('look', { kind });
    const line = text.split('\n').find((l) => l.includes(`[${manifestId}]`));
    const id = line === undefined ? undefined : /\bid=(\S+)/.exec(line)?.[1];
    if (id === undefined) throw new Error(`look shows no ${manifestId}:\n${text}`);
    return id;
  }

  /** Walk to where the stage can be done, find the entity there, and act on it. */
  async actAt(manifestId: string, kind: string, act: (id: string) => Promise<string>): Promise<void> {
    await this.tool('go_to', { target: manifestId });
    await act(await this.findId(manifestId, kind));
  }

  async step(quest: QuestView): Promise<void> {
    if (quest.status === 'not_started') {
      await this.tool('quests', { action: 'start', quest: quest.id });
      return;
    }
    const stage = quest.stage;
    if (stage === null) throw new Error(`${quest.id} is in progress without a stage`);
    switch (stage.type) {
      case 'dialogue':
      case 'deliver': {
        const npc = stage.npc?.id;
        if (npc === undefined) throw new Error(`stage ${stage.id} names no NPC`);
        await this.actAt(npc, 'npc', (id) => this.tool('interact', { verb: 'talk', target: id }));
        await this.tool('dialogue', { close: true });
        return;
      }
      case 'gather': {
        const source = stage.where[0];
        if (source === undefined) throw new Error(`no known place gives ${stage.target?.id}`);
        const amount = Math.min(28, stage.count - stage.progress);
        await this.actAt(source.id, 'resource', (id) =>
          this.tool('interact', { verb: 'gather', target: id, amount }),
        );
        return;
      }
      case 'kill': {
        const place = stage.where[0];
        if (place === undefined || stage.target === undefined)
          throw new Error(`no known place of ${stage.target?.id}`);
        await this.actAt(stage.target.id, 'npc', (id) =>
          this.tool('interact', { verb: 'attack', target: id }),
        );
        return;
      }
      default:
        throw new Error(`the policy does not play ${stage.type} stages`);
    }
  }
}

describe('an MCP client playing the first quest', () => {
  it(`completes ${QUEST} from a new character at the real tick, through the tools and resources only`, async () => {
    const policy = new Policy();
    const started = Date.now();
    const tools = (await client.listTools()).tools.map((t) => t.name);
    expect(tools.length).toBeGreaterThanOrEqual(8);
    expect(tools.length).toBeLessThanOrEqual(12);
    let quest: QuestView | undefined;
    for (let round = 0; round < 20; round++) {
      const log = await policy.resource<QuestLog>('game://quests');
      quest = log.quests.find((q) => q.id === QUEST);
      if (quest === undefined) throw new Error(`the quest log has no ${QUEST}`);
      if (quest.status === 'completed') break;
      await policy.step(quest);
    }
    const seconds = (Date.now() - started) / 1000;
    console.log(
      `${QUEST} completed through MCP in ${policy.toolCalls} tool calls (+${policy.resourceReads} resource reads, ${policy.progressNotes} progress notifications), ${seconds.toFixed(1)} s at TICK_MS ${TICK_MS}`,
    );
    expect(quest?.status, policy.transcript.join('\n\n')).toBe('completed');

    // The rewards are on the character sheet: the quest point, the fishing xp, the baked perch.
    const sheet = await policy.resource<{
      questPoints: number;
      skills: Record<string, { xp: number }>;
      inventory: ({ itemId: string; quantity: number } | null)[];
    }>('game://character');
    expect(sheet.questPoints).toBe(1);
    expect(sheet.skills['fishing']?.xp).toBeGreaterThanOrEqual(150);
    const perch = sheet.inventory
      .filter((i) => i?.itemId === 'baked_perch')
      .reduce((n, i) => n + (i?.quantity ?? 0), 0);
    expect(perch).toBe(3);
    // The long actions told their progress on the way.
    expect(policy.progressNotes).toBeGreaterThan(0);
  }, 300_000);
});
