import {
  AgentApi,
  actOn,
  fight,
  GameClient,
  type Goal,
  gatherAt,
  makeRecipe,
  type QuickActions,
  walkTo,
} from '../../sdk/src/index.ts';
import { eventUnless, RECIPES, type Stats, sleepUnless } from './policy.ts';

/**
 * A small autonomous agent built only on the SDK, driven by its socket's events: no loop polls the
 * agent API. It follows the goal its owner sets (`agent:goal`), and without one plays a cycle of its own:
 * gather at the nearest resource it can use, process what it gathered (birch logs into arrow shafts
 * with the knife of its kit), and bank the results, keeping the items it started with (its tools). It
 * answers its owner's messages in local chat at once (paused or not), reports progress, accepts trades
 * offered to it, and stands still while its goals are paused: a pause, or any new goal, aborts what it
 * is doing through an AbortSignal that every long action (walk, gather, make, bank) honours.
 *
 * The agent API is read only to find places beyond its view (the resources and banks of
 * `nearbyLocations`, fixed content), once at start and again only when it needs a place it does not
 * know: a few calls an hour.
 */

export interface AgentOptions {
  /** `http://host:port` of the game server. */
  server: string;
  /** A session token; without one, a temporary account is created (anonymous servers). */
  token?: string;
  /** The agent to play; without one, a character and an agent are created for the account. */
  agentId?: string;
  /** Logs gathered in one run before processing them. Default 5. */
  batch?: number;
  /** Bank after this many gather-and-process cycles (sooner when the inventory is short of room). Default 1. */
  bankEvery?: number;
  log?: (line: string) => void;
}

export interface RunningAgent {
  agentId: string;
  characterId: string;
  token: string;
  client: GameClient;
  /** What it has done so far. */
  stats: Stats;
  stop(): Promise<void>;
}

type Place = QuickActions['nearbyLocations'][number];

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
  const id = agentId;
  const mapping = await api.mapping(id);
  const client = await GameClient.connect({
    url: `${opts.server.replace(/^http/, 'ws')}/ws`,
    encoding: 'json',
    token,
    characterId: mapping.characterId,
    reconnect: true,
  });
  log(`connected as ${client.characterId}`);
  const stats: Stats = {
    steps: 0,
    moves: 0,
    gathered: 0,
    made: 0,
    deposits: 0,
    replies: 0,
    tradesAccepted: 0,
    xp: 0,
    apiCalls: 0,
  };
  const home = { ...(client.world.position ?? { x: 0, z: 0 }) };
  /** What it started with (tools, food) stays in the inventory; the rest is banked. */
  const kept = new Set((client.world.self?.inventory ?? []).flatMap((s) => (s ? [s.itemId] : [])));
  /** Resources the server refused it (level, tool): not tried again. */
  const unusable = new Set<string>();
  /** Places beyond view (fixed content), from the agent API. */
  let places: Place[] = [];
  let placesAt = Number.NEGATIVE_INFINITY;
  let cycles = 0;

  client.on('skill:xp', (x) => {
    stats.xp += x.gained;
  });
  // Messages are answered as they come, paused or not (chat keeps working while paused).
  client.on('agent:message', () => {
    for (const m of client.takeMessages()) {
      client.say(`${m.from.name}: got "${m.content.slice(0, 100)}"`);
      stats.replies++;
    }
  });
  // Trades offered to the agent are accepted on both screens; any change to an offer clears both
  // accepts, so it accepts again until both screens are done.
  client.on('tradeIncoming', (t) => client.tradeRespond(t.tradeId, true));
  client.on('tradeStarted', (t) => client.tradeAccept(t.tradeId));
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
  const stopping = new AbortController();
  /** Aborted by any `agent:goal` (a pause, a new goal, a resume) and by stop(). */
  let current = new AbortController();
  client.on('agent:goal', () => current.abort());
  stopping.signal.addEventListener('abort', () => current.abort());

  const report = (progress: number, note: string) => {
    try {
      client.reportProgress(Math.max(0, Math.min(100, Math.round(progress))), note.slice(0, 200));
    } catch {
      // Not connected right now: the next report will do.
    }
  };

  /** The places near the character, from the agent API at most once a minute (they are fixed content). */
  async function knownPlaces(): Promise<Place[]> {
    if (performance.now() - placesAt >= 60_000) {
      placesAt = performance.now();
      stats.apiCalls++;
      places = (await api.quickActions(id)).nearbyLocations;
    }
    return places;
  }

  /**
   * Brings a place into the character's view (the server answers NOT_FOUND to an action on anything it
   * does not see): walks next to it, trying the tiles around it nearest first. True once it is in view.
   */
  async function comeInSight(place: { id: string; x: number; z: number }, signal: AbortSignal) {
    const here = client.world.position;
    if (client.world.entities.has(place.id) || here === undefined) return client.world.entities.has(place.id);
    const around: [number, number][] = [];
    for (let dz = -1; dz <= 1; dz++)
      for (let dx = -1; dx <= 1; dx++) if (dx !== 0 || dz !== 0) around.push([place.x + dx, place.z + dz]);
    const far = ([x, z]: [number, number]) => Math.max(Math.abs(x - here.x), Math.abs(z - here.z));
    around.sort((a, b) => far(a) - far(b));
    for (const [x, z] of around) {
      const walk = await walkTo(client, { x, z }, { signal, timeoutMs: 90_000 });
      if (walk.status !== 'refused') stats.moves++;
      if (client.world.entities.has(place.id)) return true;
      if (walk.status !== 'refused') return false;
    }
    return false;
  }

  const held = (itemId: string) =>
    (client.world.self?.inventory ?? []).reduce((n, s) => n + (s?.itemId === itemId ? s.quantity : 0), 0);
  const bankable = () => (client.world.self?.inventory ?? []).some((s) => s !== null && !kept.has(s.itemId));

  async function gather(signal: AbortSignal, target?: string): Promise<void> {
    let node = target === undefined ? undefined : client.world.entities.get(target);
    if (target === undefined) {
      node = client.world.nearest((e) => e.type === 'resource' && !e.depleted && !unusable.has(e.id));
    }
    if (node === undefined) {
      // None in view: walk to the nearest resource the agent API lists (or the one the owner named).
      const listed = (await knownPlaces()).find(
        (p) => p.type === 'resource' && !unusable.has(p.id) && (target === undefined || p.id === target),
      );
      if (listed === undefined) return explore(signal);
      if (!(await comeInSight(listed, signal))) return;
      node = client.world.entities.get(listed.id);
      if (node?.depleted) {
        // Wait where it is for it (or another) to grow back: the next world:update that shows one ready.
        const ready = () => client.world.ofType('resource').some((e) => !e.depleted && !unusable.has(e.id));
        await eventUnless(client, 'world:update', 60_000, ready, signal);
        return;
      }
    }
    if (node === undefined) return;
    const run = await gatherAt(client, node.id, { amount: opts.batch ?? 5, timeoutMs: 120_000, signal });
    if (run.status === 'refused') {
      unusable.add(node.id);
      log(`cannot gather at ${node.resourceId}: ${run.error.code}`);
    }
    for (const [, n] of run.items) if (n > 0) stats.gathered += n;
    report(Math.min(100, stats.gathered), `gathered ${stats.gathered} items, ${Math.round(stats.xp)} xp`);
  }

  /** Makes whatever its recipes make from what it holds; true when something was made. */
  async function process(signal: AbortSignal): Promise<boolean> {
    let any = false;
    for (const r of RECIPES) {
      const n = held(r.from);
      if (n === 0 || !r.tools.every((t) => held(t) > 0)) continue;
      const out = await makeRecipe(
        client,
        { recipeId: r.recipeId, quantity: n },
        { signal, timeoutMs: 120_000 },
      );
      if (out.made > 0) any = true;
      stats.made += out.made;
      if (out.status !== 'stopped' && out.status !== 'refused') break;
    }
    if (any) report(100, `made ${stats.made} items`);
    return any;
  }

  async function bank(signal: AbortSignal, target?: string): Promise<void> {
    if (!bankable()) return;
    const inView = client.world.nearest(
      (e) => (e.type === 'station' && e.stationType === 'bank') || (target !== undefined && e.id === target),
    );
    let bankId = target ?? inView?.id;
    if (bankId === undefined || !client.world.entities.has(bankId)) {
      const listed = (await knownPlaces()).find(
        (p) => p.type === 'bank' && (target === undefined || p.id === target),
      );
      if (listed === undefined || !(await comeInSight(listed, signal))) return;
      bankId = listed.id;
    }
    const opened = await actOn(client, 'bank', bankId, 'bank:update', { signal, timeoutMs: 90_000 });
    if (opened.status !== 'done') return;
    const slots = client.world.self?.inventory ?? [];
    for (let slot = 0; slot < slots.length; slot++) {
      const item = slots[slot];
      if (item === null || item === undefined || kept.has(item.itemId)) continue;
      await client.deposit(slot).catch(() => {});
      stats.deposits++;
    }
    report(100, `banked; ${stats.deposits} deposits so far`);
  }

  async function explore(signal: AbortSignal): Promise<void> {
    const to = {
      x: home.x + Math.floor(Math.random() * 13) - 6,
      z: home.z + Math.floor(Math.random() * 13) - 6,
    };
    const walk = await walkTo(client, to, { signal, timeoutMs: 30_000 });
    if (walk.status === 'arrived' || walk.status === 'stopped') stats.moves++;
    report(Math.min(100, stats.moves * 10), `explored ${stats.moves} spots`);
  }

  /** The agent's own cycle: gather a batch, process it, bank every few cycles or when short of room. */
  async function ownCycle(signal: AbortSignal): Promise<void> {
    const room = client.world.freeSlots();
    if (bankable() && (room <= 2 || cycles >= (opts.bankEvery ?? 1))) {
      await bank(signal);
      cycles = 0;
      return;
    }
    await gather(signal);
    if (signal.aborted) return;
    if (await process(signal)) cycles++;
    else if (room <= 2) cycles = opts.bankEvery ?? 1;
  }

  async function follow(goal: Goal, signal: AbortSignal): Promise<void> {
    switch (goal.type) {
      case 'bank':
        await bank(signal, goal.target);
        // Done until the owner asks again: wait for the next goal.
        return idle(signal, 'banked');
      case 'gather':
        await gather(signal, goal.target);
        await process(signal);
        if (client.world.freeSlots() <= 2) await bank(signal);
        return;
      case 'combat': {
        if (goal.target === undefined) return idle(signal, 'nothing to fight');
        const place =
          client.world.entities.get(goal.target) ?? (await knownPlaces()).find((p) => p.id === goal.target);
        if (place === undefined || !(await comeInSight(place, signal)))
          return idle(signal, 'target not found');
        const out = await fight(client, goal.target, { signal, timeoutMs: 120_000 });
        report(out.status === 'killed' ? 100 : 50, `fight: ${out.status}`);
        return;
      }
      case 'follow': {
        const target = goal.target ? client.world.entities.get(goal.target) : undefined;
        if (target === undefined) return idle(signal, 'not in view');
        await walkTo(client, { x: target.x + 1, z: target.z }, { signal, timeoutMs: 30_000 });
        report(50, 'following');
        // Walk again when the target moves.
        const moved = (u: { entities: { id: string }[] }) => u.entities.some((e) => e.id === goal.target);
        await eventUnless(client, 'world:update', 60_000, moved, signal);
        return;
      }
      case 'explore':
        return explore(signal);
      default:
        return idle(signal, goal.type === 'idle' ? 'idle' : `${goal.type}: not something this agent does`);
    }
  }

  /** Reports and waits for the next goal change (or stop). */
  async function idle(signal: AbortSignal, note: string): Promise<void> {
    report(100, note);
    await sleepUnless(24 * 3_600_000, signal);
  }

  const loop = (async () => {
    while (running) {
      current = new AbortController();
      const signal = current.signal;
      const goal = client.agentGoal;
      const before = stats.xp + stats.moves + stats.deposits;
      try {
        if (goal?.goalsPaused) await sleepUnless(24 * 3_600_000, signal);
        else if (goal?.goal) await follow(goal.goal, signal);
        else await ownCycle(signal);
        stats.steps++;
      } catch (err) {
        log(`step failed: ${err instanceof Error ? err.message : String(err)}`);
      }
      // A round that did nothing (nothing in reach, a refusal) waits a little before the next one.
      if (running && !signal.aborted && stats.xp + stats.moves + stats.deposits === before)
        await sleepUnless(2000, signal);
    }
  })();

  return {
    agentId: id,
    characterId: mapping.characterId,
    token,
    client,
    stats,
    stop: async () => {
      running = false;
      stopping.abort();
      await loop;
      await client.close();
    },
  };
}
