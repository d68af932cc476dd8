import { Bench } from 'tinybench';
import { type Command, CommandQueue } from '../ecs/core/commands.ts';
import { MoveMode } from '../ecs/core/components.ts';
import { Rng } from '../ecs/core/rng.ts';
import { stepWorld } from '../ecs/core/tick.ts';
import { beginTick, type GameWorld } from '../ecs/core/world.ts';
import { movementSystem } from '../ecs/features/movement/movement-system.ts';
import { pathfindingSystem } from '../ecs/features/movement/pathfinding-system.ts';
import { requestPath } from '../ecs/features/movement/requests.ts';
import { MOVE } from '../ecs/features/movement/state.ts';
import { NPCS } from '../ecs/features/npcs/index.ts';
import { Replicator } from '../net/replication/replicator.ts';
import { inboundLimits } from '../net/session/inbound.ts';
import { benchWorld } from './world-fixture.ts';

/**
 * npm run bench: the hot systems at 10k and 100k entities.
 *  - movement: one pass with every NPC walking (2 tiles a tick) along its own path;
 *  - pathfinding: 1,000 requests to random tiles 5-15 away (what players and wanderers ask), and one
 *    200-tile path across obstacles;
 *  - replication: one tick's view computation + msgpack encoding for 2,000 players, spread over the map
 *    or packed in a 40x40 hotspot, while 10% of the NPCs and half the players move;
 *  - command queue: one tick of 2,000 players' commands offered and drained at 600 ms ticks, alone and
 *    with 20 connections flooding (100 commands a tick each: their backlogs stay full).
 */

const sizes = (process.env.BENCH_SIZES ?? '10000,100000').split(',').map(Number);
const bench = new Bench({ time: Number(process.env.BENCH_TIME_MS ?? 1500), warmupTime: 300 });
// BENCH_FILTER=replication runs only the tasks whose name contains it (e.g. under --cpu-prof).
const only = process.env.BENCH_FILTER ?? '';
const add: typeof bench.add = (name, fn, opts) => (name.includes(only) ? bench.add(name, fn, opts) : bench);

/** Gives every NPC a back-and-forth line of 64 tiles (32 ticks of walking); re-arming reuses them. */
function pathArmer(world: GameWorld): () => void {
  const { c } = world;
  const paths = new Map<number, Int32Array>();
  for (const n of world.get(NPCS).byEid.values()) {
    const x = c.Position.x[n.eid] as number;
    const z = c.Position.z[n.eid] as number;
    const path = new Int32Array(128);
    for (let i = 0; i < 64; i++) {
      path[i * 2] = x + (i < 32 ? i + 1 : 63 - i);
      path[i * 2 + 1] = z;
    }
    paths.set(n.eid, path);
  }
  return () => {
    for (const [eid, path] of paths) {
      world.get(MOVE).paths[eid] = path;
      c.Movement.step[eid] = 0;
      c.Movement.mode[eid] = MoveMode.walk;
    }
  };
}

for (const n of sizes) {
  const label = `${n / 1000}k`;
  const moving = benchWorld({ npcs: n, players: 0, hotspot: false });
  const arm = pathArmer(moving);
  let passes = 0;
  add(`movement: ${label} entities walking`, () => {
    if (passes++ % 32 === 0) arm();
    beginTick(moving, 0);
    movementSystem(moving);
  });

  const pf = benchWorld({ npcs: n, players: 0, hotspot: false });
  pf.get(MOVE).budget = Number.MAX_SAFE_INTEGER;
  const rng = new Rng(5);
  const npcs = [...pf.get(NPCS).byEid.values()].slice(0, 1000);
  add(
    `pathfinding: 1,000 short paths (5-15 tiles), ${label} entities`,
    () => {
      pathfindingSystem(pf);
    },
    {
      beforeEach: () => {
        for (const npc of npcs) {
          const x = (pf.c.Position.x[npc.eid] as number) + rng.int(-15, 15);
          const z = (pf.c.Position.z[npc.eid] as number) + rng.int(-15, 15);
          requestPath(pf, npc.eid, x, z, false, null);
        }
      },
    },
  );
}

const long = benchWorld({ npcs: 0, players: 1, hotspot: false });
long.get(MOVE).budget = Number.MAX_SAFE_INTEGER;
const walker = long.players.get('bot-0')?.eid as number;
add(
  'pathfinding: one 200-tile path across obstacles',
  () => {
    pathfindingSystem(long);
  },
  {
    beforeEach: () => {
      long.c.Position.x[walker] = 300;
      long.c.Position.z[walker] = 300;
      requestPath(long, walker, 500, 480, false, null);
    },
  },
);

for (const n of sizes) {
  for (const hotspot of [false, true]) {
    const label = `${n / 1000}k entities, 2,000 players ${hotspot ? 'in a 40x40 hotspot' : 'spread'}`;
    const world = benchWorld({ npcs: n - 2000, players: 2000, hotspot });
    const replicator = new Replicator(world);
    replicator.collect();
    const rng = new Rng(11);
    const players = [...world.players.keys()];
    let t = 0;
    add(
      `replication: ${label}`,
      () => {
        for (const d of replicator.collect()) replicator.cache.encode(d, 'msgpack');
      },
      {
        beforeEach: () => {
          // One tick of the world: half the players and 10% of NPCs (by their wander) on the move.
          const cmds: Command[] = [];
          for (let i = t++ % 2; i < players.length; i += 2) {
            const id = players[i] as string;
            const eid = world.players.get(id)?.eid as number;
            const x = (world.c.Position.x[eid] as number) + rng.int(-3, 3);
            const z = (world.c.Position.z[eid] as number) + rng.int(-3, 3);
            const cx = hotspot ? Math.min(519, Math.max(480, x)) : x;
            const cz = hotspot ? Math.min(519, Math.max(480, z)) : z;
            cmds.push({ type: 'move', characterId: id, x: cx, z: cz, run: false });
          }
          stepWorld(world, cmds, 0);
          let k = 0;
          for (const npc of world.get(NPCS).byEid.values()) {
            if (k++ % 10 !== t % 10) continue;
            const eid = npc.eid;
            const x = world.c.Position.x[eid] as number;
            world.c.Position.x[eid] = x; // keep the tile, mark it moved
            world.c.Replicated.dirty[eid] = 1;
            world.changed.push(eid);
          }
        },
      },
    );
  }
}

for (const flooders of [0, 20]) {
  const queue = new CommandQueue(inboundLimits(600));
  const calm: Command[] = Array.from({ length: 2000 }, (_, i) => ({
    type: 'moveCancel',
    characterId: `player-${i}`,
  }));
  const floods: Command[] = Array.from({ length: flooders }, (_, i) => ({
    type: 'moveCancel',
    characterId: `flooder-${i}`,
  }));
  add(
    `command queue: 2,000 players x 2 commands a tick${flooders > 0 ? `, ${flooders} flooding at 100 a tick` : ''}`,
    () => {
      for (let k = 0; k < 2; k++) for (let i = 0; i < calm.length; i++) queue.offer(calm[i] as Command);
      for (let i = 0; i < floods.length; i++) for (let k = 0; k < 100; k++) queue.offer(floods[i] as Command);
      queue.drain();
    },
  );
}

await bench.run();
console.table(
  bench.tasks.map((task) => {
    const r = task.result as
      | { latency?: { mean: number; p50?: number; p99: number }; throughput?: { mean: number } }
      | undefined;
    return {
      task: task.name,
      'mean ms': r?.latency ? Number(r.latency.mean.toFixed(3)) : NaN,
      'p99 ms': r?.latency ? Number(r.latency.p99.toFixed(3)) : NaN,
      samples: (task.result as { latency?: { samplesCount?: number } } | undefined)?.latency?.samplesCount,
    };
  }),
);
