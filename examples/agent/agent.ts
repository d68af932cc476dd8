import { AgentApi, GameClient, type Goal, type QuickActions } from '../../sdk/src/index.ts';

/**
 * A small autonomous agent built only on the SDK. Every step it reads its state from the agent API,
 * follows the goal its owner set, or picks one itself: bank what it gathered when its inventory is
 * full and a bank is near, else gather at the nearest resource it can use, else explore. It keeps the
 * items it started with (its tools), answers its owner's messages in local chat, reports progress,
 * accepts trades offered to it, and stands still while its goals are paused.
 */

export interface AgentOptions {
  /** `http://host:port` of the game server. */
  server: string;
  /** A session token; without one, a temporary account is created (anonymous servers). */
  token?: string;
  /** The agent to play; without one, a character and an agent are created for the account. */
  agentId?: string;
  /** Pause between steps, ms. */
  stepMs?: number;
  /** Bank when this many inventory slots (or fewer) are free. Default 0: when full. */
  bankWhenFree?: number;
  log?: (line: string) => void;
}

export interface RunningAgent {
  agentId: string;
  characterId: string;
  token: string;
  client: GameClient;
  /** What it has done so far. */
  stats: {
    steps: number;
    moves: number;
    deposits: number;
    replies: number;
    tradesAccepted: number;
    /** Xp gained while it played, all skills. */
    xp: number;
  };
  stop(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function startAgent(opts: AgentOptions): Promise<RunningAgent> {
  const log = opts.log ?? ((line: string) => console.log(line));
  const token = opts.token ?? (await AgentApi.anonymous(opts.server)).token;
  const api = new AgentApi(opts.server, token);
  let agentId = opts.agentId;
  if (agentId === undefined) {
    const character = await api.createCharacter(`Bot${Math.floor(Math.random() * 1_000_000)}`);
    agentId = (await api.create(character.id, `${character.name}'s agent`)).agentId;
    log(`created agent ${agentId} for character ${character.name}`);
  }
  const mapping = await api.mapping(agentId);
  const wsUrl = `${opts.server.replace(/^http/, 'ws')}/ws`;
  const client = await GameClient.connect({
    url: wsUrl,
    encoding: 'json',
    token,
    characterId: mapping.characterId,
    reconnect: true,
  });
  log(`connected as ${client.characterId}`);
  const stats = { steps: 0, moves: 0, deposits: 0, replies: 0, tradesAccepted: 0, xp: 0 };
  const home = { ...(client.world.position ?? { x: 0, z: 0 }) };
  /** What it started with (tools, food) stays in the inventory; the rest is banked. */
  const kept = new Set((client.world.self?.inventory ?? []).flatMap((s) => (s ? [s.itemId] : [])));
  /** Resources it could not use (level, tool): not tried again. */
  const unusable = new Set<string>();
  client.on('skill:xp', (x) => {
    stats.xp += x.gained;
  });

  // Trades offered to the agent are accepted on both screens.
  client.on('tradeIncoming', (t) => client.tradeRespond(t.tradeId, true));
  client.on('tradeStarted', (t) => client.tradeAccept(t.tradeId));
  // Any change to an offer clears both accepts: accept again until both screens are done.
  client.on('tradeUpdated', (t) => {
    if (!t.myOffer.accepted) client.tradeAccept(t.tradeId);
  });
  client.on('tradeConfirmScreen', (t) => {
    if (!t.myOffer.accepted) client.tradeAccept(t.tradeId);
  });
  client.on('tradeCompleted', () => {
    stats.tradesAccepted++;
  });

  let running = true;
  const id = agentId;

  /** Walks to a tile; gives up when goals are paused meanwhile (the server stopped the walk). */
  const walk = (x: number, z: number): Promise<boolean> => {
    let offPause = () => {};
    const paused = new Promise<boolean>((resolve) => {
      offPause = client.on('agent:goal', (g) => {
        if (g.goalsPaused) resolve(false);
      });
    });
    const arrived = client.moveTo(x, z, { timeoutMs: 10_000 }).then(
      () => true,
      () => false,
    );
    return Promise.race([arrived, paused]).finally(offPause);
  };

  async function step(state: QuickActions & { goal: Goal | null; goalsPaused: boolean }): Promise<void> {
    for (const m of client.takeMessages()) {
      client.say(`${m.from.name}: got "${m.content.slice(0, 100)}"`);
      stats.replies++;
    }
    if (state.goalsPaused) return; // stand still until resumed
    const bankable = (client.world.self?.inventory ?? []).some((s) => s !== null && !kept.has(s.itemId));
    const bankGoal = state.availableGoals.find((g) => g.type === 'bank' && g.available);
    const canGather = state.availableGoals.some((g) => g.type === 'gather' && g.available);
    const resource = state.nearbyLocations.find((l) => l.type === 'resource' && !unusable.has(l.id));
    const full = client.world.freeSlots() <= (opts.bankWhenFree ?? 0);
    const goal: { type: string; target?: string } =
      state.goal ??
      (full && bankable && bankGoal?.target
        ? { type: 'bank', target: bankGoal.target }
        : canGather && resource
          ? { type: 'gather', target: resource.id }
          : { type: 'explore' });
    switch (goal.type) {
      case 'bank': {
        if (goal.target === undefined || !bankable) break;
        await client.bank(goal.target, 20_000);
        const slots = client.world.self?.inventory ?? [];
        for (let slot = 0; slot < slots.length; slot++) {
          const item = slots[slot];
          if (item === null || item === undefined || kept.has(item.itemId)) continue;
          await client.deposit(slot);
          stats.deposits++;
        }
        client.reportProgress(100, 'banked what it gathered');
        return;
      }
      case 'gather': {
        if (goal.target === undefined) break;
        // Walks there and gathers until the node is depleted, the inventory is full, or a few seconds passed.
        const stopped = client.next('gathering:stop', 8000).then(
          () => 'stopped',
          () => 'timeout',
        );
        const refused = client
          .next('error', 8000, (e) => e.event === 'player:action')
          .then(
            () => 'refused',
            () => 'timeout',
          );
        client.gather(goal.target);
        if ((await Promise.race([stopped, refused])) === 'refused') unusable.add(goal.target);
        client.reportProgress(Math.min(100, Math.round(stats.xp)), `gathered ${stats.xp} xp so far`);
        return;
      }
      case 'combat':
        if (goal.target) client.attack(goal.target);
        client.reportProgress(50, 'fighting');
        return;
      case 'follow': {
        const target = goal.target ? client.world.entities.get(goal.target) : undefined;
        if (target) await walk(target.x + 1, target.z);
        client.reportProgress(50, 'following');
        return;
      }
      case 'idle':
        client.reportProgress(100, 'idle');
        return;
      default: {
        // explore: a walk to a tile near home.
        const x = home.x + Math.floor(Math.random() * 13) - 6;
        const z = home.z + Math.floor(Math.random() * 13) - 6;
        if (await walk(x, z)) stats.moves++;
        client.reportProgress(Math.min(100, stats.moves * 10), `explored ${stats.moves} spots`);
      }
    }
  }

  const loop = (async () => {
    while (running) {
      try {
        await step(await api.state(id));
        stats.steps++;
      } catch (err) {
        log(`step failed: ${err instanceof Error ? err.message : String(err)}`);
      }
      await sleep(opts.stepMs ?? 500);
    }
  })();

  return {
    agentId,
    characterId: mapping.characterId,
    token,
    client,
    stats,
    stop: async () => {
      running = false;
      await loop;
      await client.close();
    },
  };
}
