import { performance } from 'node:perf_hooks';
import { type CharacterState, emptyInventory } from '../ecs/core/character-state.ts';
import { CommandQueue } from '../ecs/core/commands.ts';
import { newSkills } from '../ecs/core/skills.ts';
import { stepWorld } from '../ecs/core/tick.ts';
import type { SocialLists } from '../ecs/features/social/index.ts';
import { createGameWorld } from '../ecs/game.ts';
import { LocalMessaging } from '../net/messaging/local.ts';
import { SocialBridge } from '../net/social/bridge.ts';
import { testContent } from '../tests/helpers/sim-content.ts';

/**
 * npm run bench:presence — presence fan-out: BENCH_PLAYERS (default 2,000) players with BENCH_FRIENDS
 * (default 200) friends each enter the world, BENCH_PER_TICK (default 200) a tick, then leave the same
 * way. The simulation, the social bridge and the local messaging port run as in the server (no
 * database: the lists are given with the characters, as login loads them). Reports the tick time
 * (simulation + bridge) p50/p99/max per phase, the friend:presence and social:list events, and the
 * presence events per second at the real tick length (600 ms).
 */

const PLAYERS = Number(process.env['BENCH_PLAYERS'] ?? 2000);
const FRIENDS = Number(process.env['BENCH_FRIENDS'] ?? 200);
const PER_TICK = Number(process.env['BENCH_PER_TICK'] ?? 200);
const TICK_S = 0.6;

const id = (i: number) => `bench-${i}`;
const name = (i: number) => `Bench${i}`;

/** Player i's friends: the FRIENDS/2 before and after it (mod PLAYERS), a symmetric graph. */
function lists(i: number): SocialLists {
  const friends = [];
  for (let d = 1; d <= FRIENDS / 2; d++) {
    for (const j of [(i + d) % PLAYERS, (i - d + PLAYERS) % PLAYERS])
      friends.push({ id: id(j), name: name(j) });
  }
  return { friends, ignored: [], requests: [], outgoing: [] };
}

function character(i: number): CharacterState {
  return {
    id: id(i),
    accountId: `acct-${i}`,
    name: name(i),
    position: { x: 10 + (i % 180), y: 0, z: 10 + Math.floor(i / 180) * 2 },
    health: 100,
    coins: 0,
    skills: newSkills(),
    inventory: emptyInventory(),
    equipment: {},
    bank: [],
    slices: { social: lists(i) },
  };
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((s.length - 1) * p))] ?? 0;
};
const ms = (x: number) => x.toFixed(2);

async function main(): Promise<void> {
  const world = createGameWorld({ content: testContent(), seed: 7, capacity: PLAYERS * 2 + 1000 });
  const queue = new CommandQueue();
  const messaging = new LocalMessaging();
  const bridge = new SocialBridge({
    port: {
      socialAct: () => Promise.reject(new Error('no database in this benchmark')),
      // The lists as given with the characters: what a database would answer after entering.
      loadSocialLists: async (ids) => new Map(ids.map((x) => [x, lists(Number(x.slice(6)))])),
    },
    messaging,
    worldId: 1,
    enqueue: (cmd) => queue.push(cmd),
    log: { error: (o) => console.error(o), info: () => {} },
  });

  async function phase(label: string, push: (from: number, to: number) => void): Promise<void> {
    const times: number[] = [];
    let presence = 0;
    let lists = 0;
    let ticks = 0;
    let idle = 0;
    for (let from = 0; from < PLAYERS || idle < 3; from += PER_TICK) {
      if (from < PLAYERS) push(from, Math.min(PLAYERS, from + PER_TICK));
      const cmds = queue.drain();
      const t0 = performance.now();
      stepWorld(world, cmds, Date.now());
      bridge.afterTick(world);
      times.push(performance.now() - t0);
      ticks++;
      let p = 0;
      for (const e of world.events) {
        if (e.kind === 'friendPresence') p++;
        else if (e.kind === 'socialList') lists++;
      }
      presence += p;
      idle = from >= PLAYERS && p === 0 && queue.length === 0 ? idle + 1 : 0;
      await messaging.flush();
    }
    console.log(
      `${label}: ${ticks} ticks, tick p50 ${ms(pct(times, 0.5))} ms, p99 ${ms(pct(times, 0.99))} ms, max ${ms(Math.max(...times))} ms; ` +
        `${presence} friend:presence + ${lists} social:list events; ` +
        `${Math.round(presence / (ticks * TICK_S))} presence messages/s at ${TICK_S * 1000} ms ticks, ` +
        `${Math.round(presence / (times.reduce((a, b) => a + b, 0) / 1000))} /s of tick time`,
    );
  }

  console.log(
    `presence fan-out: ${PLAYERS} players x ${FRIENDS} friends, ${PER_TICK} entering/leaving a tick`,
  );
  await phase('enter', (from, to) => {
    for (let i = from; i < to; i++)
      queue.push({ type: 'join', characterId: id(i), accountId: `acct-${i}`, state: character(i) });
  });
  await phase('leave', (from, to) => {
    for (let i = from; i < to; i++) queue.push({ type: 'leave', characterId: id(i), reason: 'logout' });
  });
  bridge.close();
  await messaging.close();
}

void main();
